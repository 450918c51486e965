package dev.ceiling.verdict;

import java.util.Objects;

/**
 * The fitted round trips per event against a count declared before the run: a TOST that k lies
 * within {@code declared +- margin}. CONSISTENT, NOT_CONSISTENT (k and its interval lie outside) or
 * INCONCLUSIVE (the interval is too wide, or k is not established).
 *
 * @param declaredRoundTrips the predeclared count, &gt;= 0
 * @param tost the equivalence test on k (center = the declared count)
 * @param message the outcome in one line
 */
public record CountCheck(double declaredRoundTrips, Tost tost, String message) {
  public CountCheck {
    Objects.requireNonNull(tost, "tost must not be null");
    Objects.requireNonNull(message, "message must not be null");
  }

  /** The reading of the test. */
  public Tost.Reading reading() {
    return tost.reading();
  }
}
