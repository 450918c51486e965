package dev.ceiling.experiment;

import dev.ceiling.core.model.ExperimentIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The order in which a half-run measures its cells: a pure function of the identity, so a resumed
 * sweep and the other arm plan exactly the same cells.
 */
final class CellPlan {
  private CellPlan() {}

  /**
   * Plans every cell: each rate x repeat, in ascending rate order or shuffled with the identity's
   * seed; two-community cells (report-only) follow, one per rate and repeat, in the same order.
   */
  static List<PlannedCell> plan(ExperimentIdentity id, boolean twoCommunity) {
    List<CellOrder.Slot<Double>> slots = ordered(id);
    List<PlannedCell> out = new ArrayList<>();
    for (CellOrder.Slot<Double> s : slots) {
      out.add(new PlannedCell(out.size(), s.level(), s.repeat(), false));
    }
    if (twoCommunity) {
      for (CellOrder.Slot<Double> s : slots) {
        out.add(new PlannedCell(out.size(), s.level(), s.repeat(), true));
      }
    }
    return List.copyOf(out);
  }

  /**
   * The split design's plan: each rate x repeat, in the identity's order, as a pair of adjacent
   * cells, one community and split over two, so that both kinds see the same stretch of the run.
   * Which of the pair runs first is a coin per pair, seeded by the identity (the order seed, or 0
   * for ascending order), so neither kind always follows the other's backlog.
   */
  static List<PlannedCell> splitPairs(ExperimentIdentity id) {
    Random coin = new Random(id.orderSeed() == null ? 0L : ~id.orderSeed());
    List<PlannedCell> out = new ArrayList<>();
    for (CellOrder.Slot<Double> s : ordered(id)) {
      boolean splitFirst = coin.nextBoolean();
      out.add(new PlannedCell(out.size(), s.level(), s.repeat(), splitFirst));
      out.add(new PlannedCell(out.size(), s.level(), s.repeat(), !splitFirst));
    }
    return List.copyOf(out);
  }

  /**
   * Each (rate, repeat), ascending or shuffled with the identity's seed. The whole plan is shuffled
   * ({@link CellOrder.Shuffle#WHOLE_PLAN}): it decorrelates rate from time-in-run (thermal state,
   * GC, disk), which ascending order confounds, and the fit of accepted against offered reads every
   * cell alike; the seed makes the order reproducible and identical across arms.
   */
  private static List<CellOrder.Slot<Double>> ordered(ExperimentIdentity id) {
    return CellOrder.of(
        id.ratesPerS(),
        id.repeats(),
        CellOrder.Shuffle.WHOLE_PLAN,
        "shuffled".equals(id.order()) ? id.orderSeed() : null);
  }
}
