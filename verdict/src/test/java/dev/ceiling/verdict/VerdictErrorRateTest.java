package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.ExperimentIdentity;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * Error-rate tests that catch a verdict that is too cautious, not only one that is too eager: a
 * lower bound on the null false-pass rate, power at a small effect against a computed expectation,
 * and nulls that are not Gaussian. The mutant in each is the same verdict made 10x too conservative
 * (family alpha 0.005): today's calibration tests pass it; these must not.
 *
 * <p>Seeded (override with -Dceiling.seed=N; the seed is in every message), about 3 s.
 */
class VerdictErrorRateTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_201L);
  private static final double ALPHA = 0.05;
  private static final VerdictConfig CEILING = VerdictConfig.defaults();
  private static final VerdictConfig TEN_TIMES_CAUTIOUS =
      new VerdictConfig(0.005, 0.05, 0.95, 1.5, 2, 0.0, 0.02);
  private static final List<Double> SIX = List.of(1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0);
  private static final int N = 5;

  /** Fraction of {@code experiments} where the verdict with {@code cfg} is established. */
  private static double[] passRates(
      List<Double> rates,
      int experiments,
      long seed,
      Function<SplittableRandom, double[][][]> draw,
      VerdictConfig... cfgs) {
    ExperimentIdentity id = Fixtures.identity(rates, N);
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] hits = new int[cfgs.length];
    for (int e = 0; e < experiments; e++) {
      double[][][] arms = draw.apply(rnd);
      CombinedRun run =
          new CombinedRun(id, Fixtures.half(id, ON, arms[0]), Fixtures.half(id, OFF, arms[1]));
      for (int k = 0; k < cfgs.length; k++) {
        if (Verdict.evaluate(run, cfgs[k]).established()) {
          hits[k]++;
        }
      }
    }
    double[] out = new double[cfgs.length];
    for (int k = 0; k < cfgs.length; k++) {
      out[k] = (double) hits[k] / experiments;
    }
    return out;
  }

  /** Both arms from {@code cell}, {@code m} rates of N repeats; treatment lower by shift[i]. */
  private static Function<SplittableRandom, double[][][]> arms(
      int m, double[] shift, Function<SplittableRandom, DoubleSupplier> cell) {
    return rnd -> {
      DoubleSupplier x = cell.apply(rnd);
      double[][] on = new double[m][N];
      double[][] off = new double[m][N];
      for (int i = 0; i < m; i++) {
        for (int r = 0; r < N; r++) {
          off[i][r] = x.getAsDouble();
          on[i][r] = x.getAsDouble() - shift[i];
        }
      }
      return new double[][][] {on, off};
    };
  }

  private static Function<SplittableRandom, DoubleSupplier> gaussian(double mean, double sd) {
    return rnd -> () -> mean + sd * rnd.nextGaussian();
  }

  private static double sigma(double p, int n) {
    return ErrorRates.sigma(p, n);
  }

  private static String msg(String what, double observed, double lo, double hi) {
    return ErrorRates.msg(what, observed, lo, hi, SEED);
  }

  @Test
  void theNullFalsePassRateIsNotFarBelowAlpha() {
    // Holm over m = 6 independent one-sided tests: 1 - (1 - 0.05/6)^6 = 4.9% expected. A verdict
    // far below it spends power for nothing; at 1,000 experiments the 3-sigma lower end is 2.9%,
    // and a floor of 2% is asserted.
    int n = 1_000;
    double[] r =
        passRates(
            SIX, n, SEED, arms(6, new double[6], gaussian(0.8, 0.01)), CEILING, TEN_TIMES_CAUTIOUS);
    double hi = ALPHA + 3 * sigma(ALPHA, n);
    assertThat(r[0]).as(msg("Holm null false-pass rate", r[0], 0.02, hi)).isBetween(0.02, hi);
    // Mutant: 10x too conservative passes the upper bound (all today's tests) but not this one.
    assertThat(r[1]).as(msg("10x cautious null rate", r[1], 0.02, hi)).isLessThan(0.02);
  }

  /**
   * Expected power of one one-sided Welch test at level alpha, n per arm, both sds sigma, true
   * difference delta. The mean difference D ~ N(delta, 2 sigma^2 / n) is independent of the two
   * sample variances (normal data), each sigma^2 chi2(n-1)/(n-1); the test rejects when D > t(1 -
   * alpha; df_W) x se_W. So power = E[1 - Phi((t se_W - delta) / (sigma sqrt(2/n)))] over the two
   * variances, integrated here on a grid of chi-square quantiles (midpoint rule, K x K points).
   */
  static double expectedWelchPower(double delta, double sigma, int n, double alpha) {
    int k = 120;
    ChiSquaredDistribution chi = ChiSquaredDistribution.of(n - 1);
    NormalDistribution z = NormalDistribution.of(0, 1);
    double[] v = new double[k];
    for (int i = 0; i < k; i++) {
      v[i] = sigma * sigma * chi.inverseCumulativeProbability((i + 0.5) / k) / (n - 1);
    }
    double sdD = sigma * Math.sqrt(2.0 / n);
    double sum = 0;
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < k; j++) {
        double a = v[i] / n;
        double b = v[j] / n;
        double se = Math.sqrt(a + b);
        double df = (a + b) * (a + b) / (a * a / (n - 1) + b * b / (n - 1));
        double t = TDistribution.of(df).inverseSurvivalProbability(alpha);
        sum += z.survivalProbability((t * se - delta) / sdD);
      }
    }
    return sum / (k * k);
  }

  @Test
  void powerAtASmallEffectMatchesTheComputedPower() {
    // Delta = 0.01 at sd 0.01, 5 repeats, one comparable rate: Holm is the one test at 5%.
    double expected = expectedWelchPower(0.01, 0.01, N, ALPHA);
    assertThat(expected).as("computed power").isBetween(0.30, 0.50);
    int n = 2_000;
    double[] r =
        passRates(
            List.of(1000.0),
            n,
            SEED + 1,
            arms(1, new double[] {0.01}, gaussian(0.8, 0.01)),
            CEILING,
            TEN_TIMES_CAUTIOUS);
    double allowance = 3 * sigma(expected, n);
    double lo = expected - allowance;
    double hi = expected + allowance;
    assertThat(r[0]).as(msg("power at delta 0.01", r[0], lo, hi)).isBetween(lo, hi);
    // Mutant: 10x too conservative has about a fifth of the power.
    double cautious = expectedWelchPower(0.01, 0.01, N, 0.005);
    assertThat(r[1])
        .as(msg("10x cautious power (computed " + cautious + ")", r[1], lo, hi))
        .isLessThan(lo);
  }

  @Test
  void aNullPinnedAtOneWithRareLossesHoldsTheRate() {
    // Most cells accept everything; one in ten loses 0.1% to 5% (a relay that drops a burst).
    Function<SplittableRandom, DoubleSupplier> pinned =
        rnd -> () -> rnd.nextDouble() < 0.10 ? 1.0 - rnd.nextDouble(0.001, 0.05) : 1.0;
    int n = 1_000;
    double hi = ALPHA + 3 * sigma(ALPHA, n);
    double[] r = passRates(SIX, n, SEED + 2, arms(6, new double[6], pinned), CEILING);
    assertThat(r[0]).as(msg("pinned-with-losses null rate", r[0], 0, hi)).isLessThanOrEqualTo(hi);
    // Mutant partner: a real 1-point loss in the treatment at one rate is still found.
    double[] shift = {0, 0, 0, 0.01, 0, 0};
    double[] power =
        passRates(
            SIX,
            300,
            SEED + 3,
            arms(6, shift, rnd -> () -> 1.0 - 0.002 * rnd.nextDouble()),
            CEILING);
    assertThat(power[0])
        .as(msg("pinned, 1-point loss, power", power[0], 0.9, 1))
        .isGreaterThan(0.9);
  }

  @Test
  void aNullWithRareLongStallsHoldsTheRate() {
    // Cells near 0.99; one in twenty stalls and accepts only half its offer, in either arm.
    Function<SplittableRandom, DoubleSupplier> stalls =
        rnd -> () -> rnd.nextDouble() < 0.05 ? 0.5 : 0.99 + 0.002 * rnd.nextGaussian();
    int n = 1_000;
    double hi = ALPHA + 3 * sigma(ALPHA, n);
    VerdictConfig forged = new VerdictConfig(0.5, 0.05, 0.95, 1.5, 2, 0.0, 0.02);
    double[] r = passRates(SIX, n, SEED + 4, arms(6, new double[6], stalls), CEILING, forged);
    assertThat(r[0]).as(msg("stall null rate", r[0], 0, hi)).isLessThanOrEqualTo(hi);
    // Mutant: the forged file's family alpha 0.5 on the same stalls exceeds the bound.
    assertThat(r[1]).as(msg("stall null rate at alpha 0.5", r[1], 0, hi)).isGreaterThan(hi);
  }
}
