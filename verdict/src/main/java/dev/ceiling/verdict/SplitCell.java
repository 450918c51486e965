package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * One cell of the split design, as the verdict used it.
 *
 * @param cell which cell: its arm is the relay's arm; {@code twoCommunity} is true for the split
 *     arm
 * @param split true for the "split" arm (half the offer to each of two communities), false for
 *     "one" (the whole offer to one community)
 * @param acceptedOverOffered accepted in the window / offered in the window
 * @param acceptedPerS accepted in the window per second of the requested window
 * @param poolBusyFraction the audit worker pool's busy fraction, lease waits not counted, or null
 *     when the relay does not expose it
 * @param use EVIDENCE or EXCLUDED (never REPORT_ONLY: both kinds of cell are evidence here)
 * @param problems why it is excluded, or what is notable; MASKED_BY_WORKER among them when the
 *     workers bound in both cells of its (rate, repeat) pair
 */
public record SplitCell(
    CellRef cell,
    boolean split,
    double acceptedOverOffered,
    double acceptedPerS,
    Double poolBusyFraction,
    CellUse use,
    List<CellProblem> problems) {
  public SplitCell {
    Objects.requireNonNull(cell, "cell must not be null");
    Objects.requireNonNull(use, "use must not be null");
    problems = List.copyOf(problems);
  }

  /** "one" or "split". */
  public String design() {
    return split ? "split" : "one";
  }
}
