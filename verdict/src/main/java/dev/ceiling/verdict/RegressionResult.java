package dev.ceiling.verdict;

/**
 * A non-inferiority comparison of a candidate run against a baseline on one metric: did the
 * candidate stay within {@code margin} of the baseline (H0: candidate - baseline &lt;= -margin,
 * rejected by a one-sided Welch test)? Never read from overlapping intervals.
 *
 * @param metric what was compared, e.g. "worker_rate_per_s" or "accepted_over_offered@800/s"
 * @param baselineN baseline cells
 * @param baselineMean baseline mean, or null when baselineN = 0
 * @param candidateN candidate cells
 * @param candidateMean candidate mean, or null when candidateN = 0
 * @param margin the largest tolerated loss, in the metric's unit, &gt;= 0
 * @param difference candidate - baseline, or null when either side is empty
 * @param lowerBound one-sided lower confidence bound on the difference at {@code level}, or null
 *     when the test could not run
 * @param level 1 - alpha
 * @param welchDf Welch degrees of freedom, or null when the test could not run
 * @param pValue the one-sided p-value, or null when the test could not run
 * @param nonInferior true when the lower bound is above -margin (equivalently p &lt;= alpha)
 * @param message the outcome in words
 */
public record RegressionResult(
    String metric,
    int baselineN,
    Double baselineMean,
    int candidateN,
    Double candidateMean,
    double margin,
    Double difference,
    Double lowerBound,
    double level,
    Double welchDf,
    Double pValue,
    boolean nonInferior,
    String message) {}
