package dev.ceiling.experiment;

import dev.ceiling.verdict.DelayPoint;
import dev.ceiling.verdict.Sensitivity;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What a delay sweep offers each cell: the plan's first offer, or under its per-point rule ({@link
 * DelaySweepPlan.PerPointOffer}) an offer from the ceiling that the line through the cells used
 * before it predicts at the cell's delay. Pure: the sweep applies it before each cell, and a reader
 * of the file applies it again to each stored cell from the cells stored before it ({@link
 * DelaySweepFile}). That check holds because the A/B's rules only look back (a worker lost in one
 * cell taints the later ones), so a cell's "used" flag in the finished file is the one the sweep
 * saw when it chose the next offer.
 */
final class PointOffers {
  private PointOffers() {}

  /**
   * The offer of a cell at {@code delayMs} after {@code before}, events/s: a whole number, at least
   * 1, at most the first offer, which it is until the used cells span two delays or when the line
   * predicts no ceiling there.
   *
   * @param before the cells measured before it, in run order, as the A/B's rules judged them
   */
  static double offer(DelaySweepPlan plan, List<DelaySweepCell> before, double delayMs) {
    DelaySweepPlan.PerPointOffer rule = plan.perPointOffer();
    if (rule == null) {
      return plan.offeredPerS();
    }
    // The planned delays, not the realized ones: the rule must give the same offer from the file.
    List<DelayPoint> used =
        before.stream()
            .filter(DelaySweepCell::ceilingUsed)
            // The holdout is left out of every line, this one's too: its cells are offered by the
            // rule like any cell, but never move an offer.
            .filter(c -> !plan.isHoldout(c.planned()))
            .filter(c -> c.cell().auditCompletedPerS() != null && c.cell().auditCompletedPerS() > 0)
            .map(
                c ->
                    new DelayPoint(
                        c.planned().addedDelayMs(),
                        c.planned().repeat(),
                        c.cell().auditCompletedPerS()))
            .toList();
    OptionalDouble predicted = Sensitivity.predictedCeilingPerS(used, delayMs);
    if (predicted.isEmpty()) {
      return plan.offeredPerS();
    }
    double c = predicted.getAsDouble();
    double offer = Math.max(rule.multiple() * c, c + rule.fillPerS());
    return Math.min(plan.offeredPerS(), (double) Math.max(1, Math.round(offer)));
  }
}
