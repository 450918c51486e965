package dev.ceiling.verdict;

import static dev.ceiling.verdict.ErrorRates.msg;
import static dev.ceiling.verdict.ErrorRates.sigma;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Seeded error rates of the latency slope ({@link Sensitivity#latencyFit}) on simulated sweeps with
 * a known answer: OK latency = L0 + k d + sd e, e standard normal, at delays 0, 2 and 4 ms x 2
 * repeats (the grid the nostream known answer runs: 6 points, 4 df, so t and z differ enough for a
 * z mutant to show). Each rate is held to its nominal value within a binomial 3-sigma allowance,
 * and each carries a mutant that must fall outside it.
 *
 * <p>Seeded (override with -Dceiling.seed=N; the seed is in every message).
 */
class LatencySlopeErrorRateTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_207L);
  private static final double ALPHA = 0.05;
  private static final int RUNS = 4_000;
  private static final double[] DELAYS_MS = {0, 2, 4};
  private static final double L0_MS = 3.0;
  private static final double SD_MS = 0.3;

  private static List<LatencyPoint> sweep(SplittableRandom rnd, double k) {
    List<LatencyPoint> out = new ArrayList<>();
    for (double d : DELAYS_MS) {
      for (int r = 0; r < 2; r++) {
        out.add(new LatencyPoint(d, r, L0_MS + k * d + SD_MS * rnd.nextGaussian()));
      }
    }
    return out;
  }

  @SafeVarargs
  private static double[] rates(long seed, int runs, double k, Predicate<SensitivityFit>... hits) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] count = new int[hits.length];
    for (int i = 0; i < runs; i++) {
      SensitivityFit f = Sensitivity.latencyFit(sweep(rnd, k), 0.95, ALPHA);
      for (int h = 0; h < hits.length; h++) {
        count[h] += hits[h].test(f) ? 1 : 0;
      }
    }
    double[] out = new double[hits.length];
    for (int h = 0; h < hits.length; h++) {
      out[h] = (double) count[h] / runs;
    }
    return out;
  }

  private static void coversAtNominal(String what, double coverage) {
    double lo = 0.95 - 3 * sigma(0.95, RUNS);
    double hi = 0.95 + 3 * sigma(0.95, RUNS);
    assertThat(coverage).as(msg(what, coverage, lo, hi, SEED)).isBetween(lo, hi);
  }

  @Test
  void theSlopeIntervalCoversTheTrueRoundTripsAtItsNominalRate() {
    double[] r =
        rates(
            SEED,
            RUNS,
            2,
            f -> f.roundTripsPerEvent().lower() <= 2 && 2 <= f.roundTripsPerEvent().upper(),
            f ->
                f.interceptMsPerEvent().lower() <= L0_MS
                    && L0_MS <= f.interceptMsPerEvent().upper(),
            // Mutant: z instead of t on 4 df (expected coverage P(|t4| < 1.96) = 0.88).
            f ->
                Math.abs(f.roundTripsPerEvent().value() - 2)
                    <= 1.96 * f.roundTripsPerEvent().standardError());
    coversAtNominal("latency slope k interval coverage", r[0]);
    coversAtNominal("OK latency at no added delay interval coverage", r[1]);
    assertThatThrownBy(() -> coversAtNominal("z-interval mutant coverage", r[2]))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void theLackOfFitTestRejectsATrueLineAtItsLevel() {
    double size =
        rates(SEED + 1, RUNS, 2, f -> f.lackOfFit().status() == LackOfFit.Status.REJECTED)[0];
    double lo = ALPHA - 3 * sigma(ALPHA, RUNS);
    double hi = ALPHA + 3 * sigma(ALPHA, RUNS);
    assertThat(size)
        .as(msg("latency lack-of-fit size on a true line", size, lo, hi, SEED))
        .isBetween(lo, hi);
  }

  @Test
  void aCountExactlyAtTheMarginIsFalselyConsistentAtMostAlpha() {
    Predicate<SensitivityFit> tost =
        f -> Sensitivity.againstCount(f, 2, 0.5, ALPHA).reading() == Tost.Reading.CONSISTENT;
    // Mutant: the same TOST with z in place of t (each edge's false-consistent rate near 0.087).
    Predicate<SensitivityFit> zTost =
        f -> {
          Estimate k = f.roundTripsPerEvent();
          double half = 1.6448536269514722 * k.standardError();
          return f.established() && k.value() - half > 1.5 && k.value() + half < 2.5;
        };
    double hi = ALPHA + 3 * sigma(ALPHA, RUNS);
    for (double edge : new double[] {2.5, 1.5}) {
      double[] r = rates(SEED + 2, RUNS, edge, tost, zTost);
      assertThat(r[0])
          .as(msg("latency false-consistent at k = " + edge, r[0], 0, hi, SEED))
          .isLessThanOrEqualTo(hi);
      assertThat(r[1])
          .as(msg("z mutant false-consistent at k = " + edge, r[1], 0, hi, SEED))
          .isGreaterThan(hi);
    }
    // Partner: at the declared count itself it says CONSISTENT nearly always, and against a count
    // one round trip off (3) never.
    double[] atCount =
        rates(
            SEED + 3,
            1_000,
            2,
            tost,
            f -> Sensitivity.againstCount(f, 3, 0.5, ALPHA).reading() == Tost.Reading.CONSISTENT);
    assertThat(atCount[0])
        .as(msg("consistent at k = 2", atCount[0], 0.85, 1, SEED))
        .isGreaterThan(0.85);
    assertThat(atCount[1]).as(msg("consistent with 3 at k = 2", atCount[1], 0, 0, SEED)).isZero();
  }

  @Test
  void theLatencyFitNamesEveryBrokenRuleAndSpeaksOfLatency() {
    assertThatThrownBy(
            () ->
                Sensitivity.latencyFit(
                    List.of(new LatencyPoint(0, 0, 3), new LatencyPoint(0, 0, 3.1)), 1.5, 0.05))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("level must be in (0, 1)")
        .hasMessageContaining("twice")
        .hasMessageContaining("at least 3 points at 2 distinct delays");
    SensitivityFit f = Sensitivity.latencyFit(sweep(new SplittableRandom(SEED), 2), 0.95, ALPHA);
    assertThat(f.message()).contains("ms of OK latency per ms of added round-trip delay");
    assertThatThrownBy(() -> new LatencyPoint(1, 0, Double.NaN))
        .hasMessageContaining("ok_latency_ms");
  }
}
