package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The split design's verdict: does splitting one community's offer over two raise the ceiling (a
 * per-community lock binds), is the difference within +-delta (the lock is not per community, or
 * nothing per community binds), or can the round not see the lock at all (the workers bind first)?
 *
 * @param delta the equivalence margin in accepted/offered, declared before the first cell
 * @param familyAlpha each question's family-wise level
 * @param busyThreshold the pool busy fraction at or above which the workers bind
 * @param answer the run's answer
 * @param rates one per grid rate, ascending
 * @param cells every measured cell, in run order
 * @param fatal problems that make the whole run invalid (then the answer is RUN_INVALID)
 * @param maskingReadable false when no cell carried a pool busy fraction: masking could not be
 *     detected, and the words say that no reading can rule it out
 * @param predictedWorkersCeilingPerS the relay's calibration of all workers together, or null
 * @param predictedLockCeilingPerS the relay's calibration of one lock, or null
 * @param words the answer in a sentence or two with its figures, then what to do next
 */
public record SplitReport(
    double delta,
    double familyAlpha,
    double busyThreshold,
    Answer answer,
    List<SplitRate> rates,
    List<SplitCell> cells,
    List<FatalProblem> fatal,
    boolean maskingReadable,
    Double predictedWorkersCeilingPerS,
    Double predictedLockCeilingPerS,
    String words) {

  /** The run's answer. */
  public enum Answer {
    /**
     * At least one rate reads RAISES: the split arm accepts more, by an amount not shown to lie
     * within +-delta. A per-community limit binds.
     */
    SPLIT_RAISES_THE_CEILING,
    /**
     * No rate reads RAISES, and at least one shows the difference within +-delta (a raise smaller
     * than delta may be shown there too; the words say so).
     */
    EQUIVALENT_WITHIN_DELTA,
    /** Neither shown at any rate that could speak: never read as "no difference". */
    INCONCLUSIVE,
    /** Every rate was masked: the workers bind before any lock, in both arms. */
    LOCK_NOT_MEASURABLE,
    /** A fatal problem (a lost worker, impossible counts) invalidates the run. */
    RUN_INVALID
  }

  public SplitReport {
    Objects.requireNonNull(answer, "answer must not be null");
    rates = List.copyOf(rates);
    cells = List.copyOf(cells);
    fatal = List.copyOf(fatal);
    if (words == null || words.isBlank()) {
      throw new IllegalArgumentException("words must not be blank");
    }
  }

  /** The report's rate at {@code perS}, or null. */
  public SplitRate rate(double perS) {
    return rates.stream()
        .filter(r -> CellProblems.close(r.offeredPerS(), perS))
        .findFirst()
        .orElse(null);
  }
}
