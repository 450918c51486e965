package dev.ceiling.prom;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What one selector reads in one snapshot: either the SUM of every matching series, or "not
 * exposed" (no series matched). The two are different states: a missing series is not 0 and not
 * NaN, and {@link #value()} refuses to answer for it, so a caller must handle it.
 *
 * @param selector what was read
 * @param seriesMatched how many series matched, {@code >= 0}; 0 means not exposed
 * @param value the sum of the matching series' values (may be NaN or infinite if a series is); must
 *     be 0 when nothing matched, and {@link #value()} refuses to return it then
 */
public record Reading(Selector selector, int seriesMatched, double value) {

  public Reading {
    Objects.requireNonNull(selector, "selector must not be null");
    if (seriesMatched < 0) {
      throw new IllegalArgumentException("series_matched must be >= 0, got " + seriesMatched);
    }
    if (seriesMatched == 0 && Double.compare(value, 0.0) != 0) {
      throw new IllegalArgumentException(
          "value must be 0 when no series matched (not exposed), got " + value);
    }
  }

  static Reading notExposed(Selector selector) {
    return new Reading(selector, 0, 0.0);
  }

  /** Whether at least one series matched. */
  public boolean exposed() {
    return seriesMatched > 0;
  }

  /**
   * The summed value. (This is the record accessor, deliberately guarded.)
   *
   * @throws IllegalStateException when nothing matched: check {@link #exposed()} first
   */
  @Override
  public double value() {
    if (!exposed()) {
      throw new IllegalStateException(selector + " is not exposed; check exposed() first");
    }
    return value;
  }

  /** The summed value, or empty when not exposed. */
  public OptionalDouble asOptional() {
    return exposed() ? OptionalDouble.of(value) : OptionalDouble.empty();
  }

  @Override
  public String toString() {
    return exposed()
        ? selector + " = " + value + " (" + seriesMatched + " series)"
        : selector + " not exposed";
  }
}
