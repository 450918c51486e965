package dev.ceiling.verdict.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.DataDispersion;
import org.apache.commons.statistics.inference.TTest;

/**
 * Welch's unequal-variance t-test and Student-t intervals, with quantiles at fractional degrees of
 * freedom from Apache Commons Statistics (never a table). Pure and thread-safe.
 */
public final class Welch {
  private Welch() {}

  /**
   * The one-sided Welch test of H0: mean(a) - mean(b) &lt;= delta0 against H1: greater.
   *
   * @param difference mean(a) - mean(b)
   * @param standardError sqrt(var(a)/n_a + var(b)/n_b)
   * @param t (difference - delta0) / standardError
   * @param df Welch-Satterthwaite degrees of freedom
   * @param pGreater P(T_df &gt;= t)
   */
  public record Result(
      double difference, double standardError, double t, double df, double pGreater) {}

  /** Standard error of mean(a) - mean(b): 0 exactly when both samples are constant. */
  public static double standardError(Sample a, Sample b) {
    return Math.sqrt(a.variance() / a.n() + b.variance() / b.n());
  }

  /**
   * The test. Requires n &gt;= 2 in each sample and a positive standard error; the caller handles
   * the degenerate case (both samples constant) explicitly.
   */
  public static Result test(Sample a, Sample b, double delta0) {
    if (a.n() < 2 || b.n() < 2) {
      throw new IllegalArgumentException(
          "Welch's test needs n >= 2 in each sample, got " + a.n() + " and " + b.n());
    }
    double se = standardError(a, b);
    if (!(se > 0)) {
      throw new IllegalArgumentException("Welch's test needs a positive standard error, got " + se);
    }
    TTest.Result r =
        TTest.withDefaults()
            .with(DataDispersion.HETEROSCEDASTIC)
            .with(AlternativeHypothesis.GREATER_THAN)
            .withMu(delta0)
            .test(a.mean(), a.variance(), a.n(), b.mean(), b.variance(), b.n());
    return new Result(
        a.mean() - b.mean(), se, r.getStatistic(), r.getDegreesOfFreedom(), r.getPValue());
  }

  /**
   * Welch-Satterthwaite degrees of freedom of mean(a) - mean(b) from each sample's variance and
   * size: (va/na + vb/nb)^2 / ((va/na)^2/(na-1) + (vb/nb)^2/(nb-1)). Needs na, nb &gt;= 2 and a
   * positive variance in at least one sample.
   */
  public static double df(double va, int na, double vb, int nb) {
    if (na < 2 || nb < 2 || !(va >= 0 && vb >= 0 && va + vb > 0)) {
      throw new IllegalArgumentException(
          "Welch-Satterthwaite df needs n >= 2 in each sample and a positive variance, got "
              + va
              + "/"
              + na
              + " and "
              + vb
              + "/"
              + nb);
    }
    double a = va / na;
    double b = vb / nb;
    return (a + b) * (a + b) / (a * a / (na - 1) + b * b / (nb - 1));
  }

  /** Memo for whole-number df (per-arm intervals), where the same few quantiles recur. */
  private static final Map<List<Double>, Double> WHOLE_DF = new ConcurrentHashMap<>();

  /** The upper {@code p} quantile of Student's t at (possibly fractional) {@code df}. */
  public static double tUpper(double df, double p) {
    if (df == Math.rint(df) && df <= 1000) {
      return WHOLE_DF.computeIfAbsent(
          List.of(df, p), k -> TDistribution.of(df).inverseSurvivalProbability(p));
    }
    return TDistribution.of(df).inverseSurvivalProbability(p);
  }

  /**
   * A two-sided Student-t interval for a sample's mean at {@code level}. A constant sample gives
   * the degenerate interval [mean, mean].
   *
   * @return {lower, upper}
   */
  public static double[] meanInterval(Sample s, double level) {
    if (s.n() < 2) {
      throw new IllegalArgumentException("an interval needs n >= 2, got " + s.n());
    }
    double half = tUpper(s.n() - 1, (1 - level) / 2) * s.sd() / Math.sqrt(s.n());
    return new double[] {s.mean() - half, s.mean() + half};
  }
}
