package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The audit worker's completion rate, from evidence cells that were steady and busy only.
 *
 * @param estimatePerS mean audit_completed_per_s over those cells, events/s
 * @param lowerPerS two-sided Student-t interval's lower end at {@code level}, or null when n &lt; 2
 * @param upperPerS its upper end, or null when n &lt; 2
 * @param level the interval's confidence level, 1 - family_alpha
 * @param cellsUsed the cells the estimate came from
 * @param note always {@link #NOTE}
 */
public record WorkerRate(
    double estimatePerS,
    Double lowerPerS,
    Double upperPerS,
    double level,
    List<CellRef> cellsUsed,
    String note) {

  public static final String NOTE =
      "worker completion rate, not ingest capacity: what the audit worker completed per second"
          + " while busy in steady state";

  public WorkerRate {
    cellsUsed = List.copyOf(cellsUsed);
    if (cellsUsed.isEmpty()) {
      throw new IllegalArgumentException("cells_used must not be empty, got []");
    }
    if ((cellsUsed.size() < 2) != (lowerPerS == null)
        || (lowerPerS == null) != (upperPerS == null)) {
      throw new IllegalArgumentException(
          "the interval must be null exactly when fewer than 2 cells were used, got "
              + cellsUsed.size());
    }
    Objects.requireNonNull(note, "note must not be null");
  }
}
