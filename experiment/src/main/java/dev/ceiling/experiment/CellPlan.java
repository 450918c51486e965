package dev.ceiling.experiment;

import dev.ceiling.core.model.ExperimentIdentity;
import java.util.ArrayList;
import java.util.Collections;
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
    List<double[]> pairs = ordered(id);
    List<PlannedCell> out = new ArrayList<>();
    for (double[] p : pairs) {
      out.add(new PlannedCell(out.size(), p[0], (int) p[1], false));
    }
    if (twoCommunity) {
      for (double[] p : pairs) {
        out.add(new PlannedCell(out.size(), p[0], (int) p[1], true));
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
    for (double[] p : ordered(id)) {
      boolean splitFirst = coin.nextBoolean();
      out.add(new PlannedCell(out.size(), p[0], (int) p[1], splitFirst));
      out.add(new PlannedCell(out.size(), p[0], (int) p[1], !splitFirst));
    }
    return List.copyOf(out);
  }

  /** Each (rate, repeat), ascending or shuffled with the identity's seed. */
  private static List<double[]> ordered(ExperimentIdentity id) {
    List<double[]> pairs = new ArrayList<>();
    for (double rate : id.ratesPerS()) {
      for (int r = 0; r < id.repeats(); r++) {
        pairs.add(new double[] {rate, r});
      }
    }
    if ("shuffled".equals(id.order())) {
      // Shuffling decorrelates rate from time-in-run (thermal state, GC, disk), which ascending
      // order confounds; the seed makes the order reproducible and identical across arms.
      Collections.shuffle(pairs, new Random(id.orderSeed()));
    }
    return pairs;
  }
}
