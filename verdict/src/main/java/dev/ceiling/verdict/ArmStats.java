package dev.ceiling.verdict;

/**
 * One arm's evidence cells at one rate: accepted/offered summarized. Descriptive only: no decision
 * reads these intervals (overlapping per-arm intervals are not evidence of anything).
 *
 * @param n evidence cells
 * @param mean mean accepted/offered, or null when n = 0
 * @param sd sample standard deviation, or null when n &lt; 2
 * @param lower two-sided Student-t interval's lower end at {@code level}, or null when n &lt; 2
 * @param upper its upper end, or null when n &lt; 2
 * @param level the interval's confidence level (1 - family_alpha), unadjusted
 */
public record ArmStats(int n, Double mean, Double sd, Double lower, Double upper, double level) {
  public ArmStats {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0, got " + n);
    }
    if ((n == 0) != (mean == null)) {
      throw new IllegalArgumentException("mean must be null exactly when n = 0, got n=" + n);
    }
    if ((n < 2) != (sd == null) || (n < 2) != (lower == null) || (n < 2) != (upper == null)) {
      throw new IllegalArgumentException(
          "sd and interval must be null exactly when n < 2, got n=" + n);
    }
  }
}
