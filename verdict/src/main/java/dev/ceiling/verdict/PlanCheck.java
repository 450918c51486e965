package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A half's cells against its identity's plan: exactly one cell per (rate, repeat) of the grid,
 * plus, when the half measured any two-community (report-only) cell, exactly one of those per
 * (rate, repeat) too, with sequence numbers unique and inside the plan. A "re-run" kept because it
 * looked good, a missing cell or a copied cell would otherwise enter the comparison silently.
 *
 * <p>Pure; the half's own {@code complete} flag is never read: completeness is derived here.
 */
final class PlanCheck {
  private PlanCheck() {}

  /**
   * What is wrong with a half's cells.
   *
   * @param missing planned cells the half does not hold (the half is incomplete)
   * @param unplanned cells outside the plan, duplicates of a planned cell, and repeated or
   *     out-of-plan sequence numbers: fatal
   */
  record Result(List<String> missing, List<String> unplanned) {
    boolean complete() {
      return missing.isEmpty();
    }
  }

  static Result check(HalfRun half) {
    ExperimentIdentity id = half.identity();
    boolean twoCommunity = half.cells().stream().anyMatch(Cell::twoCommunity);
    Map<String, Integer> planned = new LinkedHashMap<>();
    for (boolean tc : twoCommunity ? new boolean[] {false, true} : new boolean[] {false}) {
      for (double rate : id.ratesPerS()) {
        for (int r = 0; r < id.repeats(); r++) {
          planned.put(label(rate, r, tc), 0);
        }
      }
    }
    int plannedCount = planned.size();
    List<String> unplanned = new ArrayList<>();
    Map<Integer, Integer> sequences = new HashMap<>();
    for (Cell c : half.cells()) {
      String label = label(gridRate(c.offeredPerS(), id), c.repeat(), c.twoCommunity());
      Integer seen = planned.get(label);
      if (seen == null) {
        unplanned.add(
            "cell at sequence "
                + c.sequence()
                + " ("
                + label
                + ") is not in the plan ("
                + id.ratesPerS().size()
                + " rates x "
                + id.repeats()
                + " repeats)");
      } else {
        planned.put(label, seen + 1);
        if (seen >= 1) {
          unplanned.add(
              "cell at sequence " + c.sequence() + " duplicates the planned cell " + label);
        }
      }
      int n = sequences.merge(c.sequence(), 1, Integer::sum);
      if (n == 2) {
        unplanned.add("sequence " + c.sequence() + " is used by more than one cell");
      }
      if (c.sequence() >= plannedCount) {
        unplanned.add(
            "sequence "
                + c.sequence()
                + " is outside the plan's "
                + plannedCount
                + " cells (0 to "
                + (plannedCount - 1)
                + ")");
      }
    }
    List<String> missing = new ArrayList<>();
    planned.forEach(
        (label, n) -> {
          if (n == 0) {
            missing.add(label);
          }
        });
    return new Result(List.copyOf(missing), List.copyOf(unplanned));
  }

  /** The grid rate a cell's rate matches, or the cell's own rate when it is off the grid. */
  private static double gridRate(double rate, ExperimentIdentity id) {
    return id.ratesPerS().stream()
        .filter(r -> CellProblems.close(r, rate))
        .findFirst()
        .orElse(rate);
  }

  private static String label(double rate, int repeat, boolean twoCommunity) {
    return Fmt.num(rate) + "/s repeat " + repeat + (twoCommunity ? " (two-community)" : "");
  }
}
