package dev.ceiling.verdict;

/**
 * Control minus treatment in mean accepted/offered at one comparable rate, with Welch's one-sided
 * test against H0: difference &lt;= min_difference, and the effect size with a simultaneous
 * interval.
 *
 * @param estimate mean(control) - mean(treatment); positive means the treatment accepted less
 * @param standardError Welch's standard error, sqrt(s_c^2/n_c + s_t^2/n_t)
 * @param welchT the t statistic (estimate - min_difference) / se, or null when degenerate
 * @param welchDf Welch-Satterthwaite degrees of freedom (fractional), or null when degenerate
 * @param pOneSided the unadjusted one-sided p-value, or null when degenerate
 * @param pAdjusted the Holm-adjusted p-value across the comparable rates, or null when degenerate
 *     (a degenerate rate takes part in the correction as p = 1)
 * @param lowerBound the simultaneous one-sided lower confidence bound on the difference at {@code
 *     intervalLevel} (Bonferroni), upper end unbounded; null when degenerate
 * @param intervalLevel 1 - family_alpha / m
 * @param degenerate true when both arms' cells are exactly constant: no estimate of sampling error,
 *     so no evidence either way
 */
public record Difference(
    double estimate,
    double standardError,
    Double welchT,
    Double welchDf,
    Double pOneSided,
    Double pAdjusted,
    Double lowerBound,
    double intervalLevel,
    boolean degenerate) {
  public Difference {
    if (degenerate != (welchT == null)
        || degenerate != (welchDf == null)
        || degenerate != (pOneSided == null)
        || degenerate != (pAdjusted == null)
        || degenerate != (lowerBound == null)) {
      throw new IllegalArgumentException(
          "test figures must be null exactly when degenerate, got degenerate=" + degenerate);
    }
  }
}
