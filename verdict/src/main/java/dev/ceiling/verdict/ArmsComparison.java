package dev.ceiling.verdict;

import java.util.Objects;

/**
 * Two arms' delay sweeps that differ only in durability (e.g. synchronous commit on and off): the
 * slopes must agree, since the exchanges are the same, and the intercepts differ by the cost of
 * durability per event.
 *
 * @param slopeDifference a TOST that k_a - k_b lies within 0 +- the slope margin (round trips per
 *     event), on Welch-Satterthwaite degrees of freedom; INCONCLUSIVE when either arm's line is not
 *     established
 * @param interceptDifferenceMsPerEvent c_a - c_b, ms per event, with its two-sided interval: the
 *     durability cost per event when the slopes agree
 * @param message both in one line
 */
public record ArmsComparison(
    Tost slopeDifference, Estimate interceptDifferenceMsPerEvent, String message) {
  public ArmsComparison {
    Objects.requireNonNull(slopeDifference, "slope_difference must not be null");
    Objects.requireNonNull(interceptDifferenceMsPerEvent, "intercept_difference must not be null");
    Objects.requireNonNull(message, "message must not be null");
  }
}
