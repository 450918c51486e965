package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import java.util.Locale;
import java.util.Objects;

/**
 * Names one cell in a report: enough to find it in its half-run without copying it.
 *
 * @param arm the cell's arm
 * @param offeredPerS the offered rate, events/s
 * @param repeat the repeat index at that rate
 * @param sequence the cell's position in its half-run's execution order
 * @param twoCommunity true for a report-only two-community cell
 */
public record CellRef(
    String arm, double offeredPerS, int repeat, int sequence, boolean twoCommunity) {

  public CellRef {
    Objects.requireNonNull(arm, "arm must not be null");
  }

  public static CellRef of(Cell c) {
    return new CellRef(c.arm(), c.offeredPerS(), c.repeat(), c.sequence(), c.twoCommunity());
  }

  /** For messages: {@code on@800/s#2 (seq 7)}. Locale-independent. */
  public String label() {
    return String.format(
        Locale.ROOT,
        "%s@%s/s#%d%s (seq %d)",
        arm,
        Fmt.num(offeredPerS),
        repeat,
        twoCommunity ? " two-community" : "",
        sequence);
  }
}
