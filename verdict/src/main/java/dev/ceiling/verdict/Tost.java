package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.internal.Welch;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Two one-sided t tests (TOST) of whether a quantity lies within {@code center +- margin}: H0a:
 * theta &lt;= center - margin and H0b: theta &gt;= center + margin, each tested at alpha. Both
 * rejected is the same as the 1 - 2 alpha interval lying inside the margin; that is the only way to
 * read CONSISTENT. An interval that merely overlaps the margin, or contains the center, is not
 * evidence of agreement.
 *
 * @param estimate the estimate of theta
 * @param standardError its standard error, or null when the test could not run
 * @param df t degrees of freedom, or null when the test could not run
 * @param center the value theta is compared with (a declared count, or 0 for a difference)
 * @param margin the half-width of the equivalence region, &gt; 0, in theta's unit
 * @param alpha each one-sided test's level, in (0, 0.5)
 * @param pBelow the p-value of H0a (theta &lt;= center - margin), or null when not run
 * @param pAbove the p-value of H0b (theta &gt;= center + margin), or null when not run
 * @param lower the 1 - 2 alpha interval's lower end, or null when not run
 * @param upper its upper end, or null when not run
 * @param reading what the interval says about the margin
 * @param untestableReason why the test could not run, or null when it ran
 */
public record Tost(
    double estimate,
    Double standardError,
    Double df,
    double center,
    double margin,
    double alpha,
    Double pBelow,
    Double pAbove,
    Double lower,
    Double upper,
    Reading reading,
    String untestableReason) {

  /** What a TOST says. */
  public enum Reading {
    /** The 1 - 2 alpha interval lies inside center +- margin: both one-sided nulls rejected. */
    CONSISTENT,
    /**
     * The 1 - 2 alpha interval lies wholly outside center +- margin: theta differs from center by
     * more than the margin, at level alpha.
     */
    NOT_CONSISTENT,
    /** The interval crosses an edge of the margin, or the test could not run. */
    INCONCLUSIVE
  }

  public Tost {
    boolean ran = untestableReason == null;
    boolean ok =
        Double.isFinite(estimate)
            && Double.isFinite(center)
            && margin > 0
            && Double.isFinite(margin)
            && alpha > 0
            && alpha < 0.5
            && ran == (standardError != null)
            && ran == (df != null)
            && ran == (pBelow != null)
            && ran == (pAbove != null)
            && ran == (lower != null)
            && ran == (upper != null)
            && (ran || reading == Reading.INCONCLUSIVE)
            && reading != null;
    // Messages are formatted only when something is wrong (error-rate tests build many).
    if (!ok) {
      new Checks()
          .require(Double.isFinite(estimate), "estimate must be finite, got " + estimate)
          .require(Double.isFinite(center), "center must be finite, got " + center)
          .positiveFinite("margin", margin)
          .require(alpha > 0 && alpha < 0.5, "alpha must be in (0, 0.5), got " + alpha)
          .require(
              ran == (standardError != null)
                  && ran == (df != null)
                  && ran == (pBelow != null)
                  && ran == (pAbove != null)
                  && ran == (lower != null)
                  && ran == (upper != null),
              "test figures must be null exactly when untestable_reason is set")
          .require(ran || reading == Reading.INCONCLUSIVE, "an untested TOST must be INCONCLUSIVE")
          .require(reading != null, "reading must not be null")
          .orThrow();
    }
  }

  /**
   * The test from an estimate, its standard error and t degrees of freedom. A standard error of
   * exactly 0 (constant data) is no estimate of sampling error: the result is INCONCLUSIVE with
   * that reason, never CONSISTENT.
   *
   * @param standardError finite, &gt;= 0
   * @param df &gt; 0
   * @param margin &gt; 0, in the estimate's unit
   * @param alpha in (0, 0.5)
   * @throws IllegalArgumentException naming every argument out of range
   */
  public static Tost of(
      double estimate,
      double standardError,
      double df,
      double center,
      double margin,
      double alpha) {
    if (!(standardError >= 0 && df > 0 && margin > 0 && alpha > 0 && alpha < 0.5)
        || Double.isInfinite(standardError + df + margin)) {
      new Checks()
          .nonNegativeFinite("standard_error", standardError)
          .positiveFinite("df", df)
          .positiveFinite("margin", margin)
          .require(alpha > 0 && alpha < 0.5, "alpha must be in (0, 0.5), got " + alpha)
          .orThrow();
    }
    if (!(standardError > 0)) {
      return untestable(
          estimate,
          center,
          margin,
          alpha,
          "the standard error is exactly 0: constant data gives no estimate of sampling error");
    }
    TDistribution t = TDistribution.of(df);
    double pBelow = t.survivalProbability((estimate - (center - margin)) / standardError);
    double pAbove = t.cumulativeProbability((estimate - (center + margin)) / standardError);
    double half = Welch.tUpper(df, alpha) * standardError;
    double lower = estimate - half;
    double upper = estimate + half;
    Reading reading;
    if (lower > center - margin && upper < center + margin) {
      reading = Reading.CONSISTENT;
    } else if (lower > center + margin || upper < center - margin) {
      reading = Reading.NOT_CONSISTENT;
    } else {
      reading = Reading.INCONCLUSIVE;
    }
    return new Tost(
        estimate,
        standardError,
        df,
        center,
        margin,
        alpha,
        pBelow,
        pAbove,
        lower,
        upper,
        reading,
        null);
  }

  /** A TOST that could not run, for {@code reason}: INCONCLUSIVE. */
  public static Tost untestable(
      double estimate, double center, double margin, double alpha, String reason) {
    return new Tost(
        estimate,
        null,
        null,
        center,
        margin,
        alpha,
        null,
        null,
        null,
        null,
        Reading.INCONCLUSIVE,
        reason);
  }

  /** max(pBelow, pAbove): the TOST's p-value (intersection-union), or null when not run. */
  public Double p() {
    return pBelow == null ? null : Math.max(pBelow, pAbove);
  }

  /** The interval's level, 1 - 2 alpha. */
  public double level() {
    return 1 - 2 * alpha;
  }

  /** "6.0123, 90% interval [5.9, 6.1], margin 6 +- 0.5" or the reason it did not run. */
  String inWords() {
    String region = Fmt.num(center) + " +- " + Fmt.num(margin);
    if (untestableReason != null) {
      return Fmt.stat(estimate) + ", not tested against " + region + ": " + untestableReason;
    }
    return Fmt.stat(estimate)
        + ", "
        + Fmt.percent(level())
        + "% interval ["
        + Fmt.stat(lower)
        + ", "
        + Fmt.stat(upper)
        + "] "
        + switch (reading) {
          case CONSISTENT -> "inside ";
          case NOT_CONSISTENT -> "wholly outside ";
          case INCONCLUSIVE -> "crosses an edge of ";
        }
        + region
        + " (TOST p = "
        + Fmt.p(p())
        + ")";
  }
}
