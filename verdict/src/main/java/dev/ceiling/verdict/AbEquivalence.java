package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.verdict.internal.Holm;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The A/B's equivalence question (the identity's predeclared margin delta): per comparable rate, a
 * TOST of control minus treatment in mean accepted/offered within +-delta, Holm across the rates
 * the separation test compares. Pure.
 *
 * <p>Zero spread is not zero sampling error. Each arm's variance at a rate is at least the binomial
 * variance of one cell's accepted/offered, p(1 - p) / (mean offered events per cell), with p the
 * Agresti-Coull centre (accepted + 2) / (offered + 4) of the arm's pooled counts at that rate,
 * which is never 0 or 1. Far below the ceiling every cell accepts everything in both arms; the
 * floor then says how well the counts themselves pin the fraction down, and the t quantile at the
 * cells' Welch-Satterthwaite degrees of freedom keeps the small-sample price of few cells.
 */
final class AbEquivalence {
  private AbEquivalence() {}

  /** One arm's cells at one rate: their accepted/offered and the variance the test uses. */
  private record Arm(Sample sample, double variance, boolean floored) {
    static Arm of(List<Cell> cells) {
      Sample s = Sample.of(cells.stream().mapToDouble(Cell::acceptedOverOffered).toArray());
      double offered = cells.stream().mapToDouble(Cell::offeredEvents).sum();
      double accepted = Math.min(offered, cells.stream().mapToDouble(Cell::acceptedInWindow).sum());
      double p = (accepted + 2) / (offered + 4);
      double floor = p * (1 - p) / (offered / cells.size());
      return new Arm(s, Math.max(s.variance(), floor), s.variance() < floor);
    }
  }

  /**
   * The equivalence report, or null when the identity declares no margin.
   *
   * @param evidence each arm's evidence cells, by arm name
   * @param rows the separation test's rows, one per grid rate
   */
  static EquivalenceReport judge(
      ExperimentIdentity id,
      Map<String, List<Cell>> evidence,
      List<RateRow> rows,
      VerdictConfig cfg) {
    Double delta = id.equivalenceMargin();
    double alpha = cfg.familyAlpha();
    // alpha = 0.5 (a file's, never a flag's) leaves the TOST's 1 - 2 alpha interval empty.
    if (delta == null || alpha >= 0.5 || evidence.get(id.controlArm()) == null) {
      return null;
    }
    List<Tost> tosts = new ArrayList<>();
    List<Boolean> floored = new ArrayList<>();
    for (RateRow r : rows) {
      if (!r.comparable()) {
        continue;
      }
      Arm t = Arm.of(at(evidence.get(id.treatmentArm()), r.offeredPerS()));
      Arm c = Arm.of(at(evidence.get(id.controlArm()), r.offeredPerS()));
      double se = Math.sqrt(c.variance() / c.sample().n() + t.variance() / t.sample().n());
      double df = Welch.df(c.variance(), c.sample().n(), t.variance(), t.sample().n());
      double cost = c.sample().mean() - t.sample().mean();
      tosts.add(Tost.of(cost, se, df, 0, delta, alpha));
      floored.add(c.floored() || t.floored());
    }
    double[] adjusted = Holm.adjust(tosts.stream().mapToDouble(Tost::p).toArray());
    List<RateEquivalence> out = new ArrayList<>();
    int j = 0;
    for (RateRow r : rows) {
      if (!r.comparable()) {
        out.add(
            new RateEquivalence(
                r.offeredPerS(),
                null,
                null,
                null,
                false,
                RateEquivalence.Reading.INCONCLUSIVE,
                "not comparable: " + r.notComparableReason()));
        continue;
      }
      out.add(reading(r, tosts.get(j), adjusted[j], floored.get(j), alpha));
      j++;
    }
    return new EquivalenceReport(
        delta, alpha, tosts.size(), out, VerdictWords.equivalence(id, delta, alpha, out));
  }

  private static RateEquivalence reading(
      RateRow r, Tost tost, double pAdjusted, boolean floored, double alpha) {
    RateEquivalence.Reading reading;
    String note = null;
    if (r.separated()) {
      reading = RateEquivalence.Reading.LIMITS;
      if (pAdjusted <= alpha) {
        note = "the limit is shown and is also within +-" + Fmt.num(tost.margin());
      }
    } else if (pAdjusted <= alpha) {
      reading = RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA;
    } else {
      reading = RateEquivalence.Reading.INCONCLUSIVE;
    }
    return new RateEquivalence(
        r.offeredPerS(), tost.estimate(), tost, pAdjusted, floored, reading, note);
  }

  private static List<Cell> at(List<Cell> cells, double rate) {
    return cells.stream().filter(c -> CellProblems.close(c.offeredPerS(), rate)).toList();
  }
}
