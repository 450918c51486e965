package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;

/**
 * Equivalence of two samples' means within a stated margin: a TOST on mean(candidate) -
 * mean(baseline) with Welch's standard error and Welch-Satterthwaite degrees of freedom. The one
 * way to claim "no difference larger than the margin"; overlapping intervals never are. Pure;
 * thread-safe.
 */
public final class TwoSampleTost {
  private TwoSampleTost() {}

  /**
   * The test. Fewer than 2 values in either sample, or both samples exactly constant, give an
   * INCONCLUSIVE result with the reason (no estimate of sampling error).
   *
   * @param baseline at least 1 finite value
   * @param candidate at least 1 finite value
   * @param margin &gt; 0, in the values' unit (e.g. 0.05 of accepted/offered)
   * @param alpha each one-sided test's level, in (0, 0.5)
   * @throws IllegalArgumentException naming every broken rule at once
   */
  public static Tost test(double[] baseline, double[] candidate, double margin, double alpha) {
    Checks checks = new Checks();
    checks.require(baseline.length > 0, "baseline must have at least one value, got 0");
    checks.require(candidate.length > 0, "candidate must have at least one value, got 0");
    checks.require(allFinite(baseline), "baseline values must be finite");
    checks.require(allFinite(candidate), "candidate values must be finite");
    checks.positiveFinite("margin", margin);
    checks.require(alpha > 0 && alpha < 0.5, "alpha must be in (0, 0.5), got " + alpha);
    checks.orThrow();
    Sample b = Sample.of(baseline);
    Sample c = Sample.of(candidate);
    double difference = c.mean() - b.mean();
    if (b.n() < 2 || c.n() < 2) {
      return Tost.untestable(
          difference,
          0,
          margin,
          alpha,
          "needs 2 values per sample, has " + b.n() + " baseline and " + c.n() + " candidate");
    }
    if (!(Welch.standardError(c, b) > 0)) {
      return Tost.untestable(
          difference,
          0,
          margin,
          alpha,
          "both samples are exactly constant: no estimate of sampling error");
    }
    Welch.Result r = Welch.test(c, b, 0.0);
    return Tost.of(r.difference(), r.standardError(), r.df(), 0, margin, alpha);
  }

  private static boolean allFinite(double[] values) {
    for (double v : values) {
      if (!Double.isFinite(v)) {
        return false;
      }
    }
    return true;
  }
}
