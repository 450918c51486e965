package dev.ceiling.verdict;

import static dev.ceiling.verdict.ErrorRates.msg;
import static dev.ceiling.verdict.ErrorRates.sigma;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Seeded error rates of the checked what-if ({@link Sensitivity#whatIf}, {@link
 * Sensitivity#latencyWhatIf}) on simulated sweeps with a known answer. The ceiling's per-event time
 * is y = 2 + 0.5 d ms (500/s at no added delay) plus sd 0.1 ms of scatter, swept at 0, 2 and 4 ms x
 * 2 repeats (6 points, 4 df: t and z differ enough for a z mutant to show), with 2 holdout repeats
 * at the what-if's delay. Where the line is true, a holdout must read INSIDE at the interval's
 * nominal rate, within a binomial 3-sigma allowance; each rate carries a mutant that must fall
 * outside it. Where the line is false at the holdout (a CPU plateau: the relay cannot go faster
 * than 333/s, whatever the link), it must read OUTSIDE almost always.
 *
 * <p>Seeded (override with -Dceiling.seed=N; the seed is in every message).
 */
class WhatIfErrorRateTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_207L);
  private static final int RUNS = 4_000;
  private static final double LEVEL = 0.95;
  private static final double C_MS = 2.0;
  private static final double K = 0.5;
  private static final double SD_MS = 0.1;

  private static double line(double d) {
    return C_MS + K * d;
  }

  private static List<DelayPoint> points(
      SplittableRandom rnd, double[] delays, int repeats, DoubleUnaryOperator truth) {
    List<DelayPoint> out = new ArrayList<>();
    for (double d : delays) {
      for (int r = 0; r < repeats; r++) {
        out.add(
            new DelayPoint(d, r, 1000.0 / (truth.applyAsDouble(d) + SD_MS * rnd.nextGaussian())));
      }
    }
    return out;
  }

  private static void atNominal(String what, double rate) {
    double lo = LEVEL - 3 * sigma(LEVEL, RUNS);
    double hi = LEVEL + 3 * sigma(LEVEL, RUNS);
    assertThat(rate).as(msg(what, rate, lo, hi, SEED)).isBetween(lo, hi);
  }

  private static void belowNominal(String what, double rate) {
    double hi = LEVEL - 3 * sigma(LEVEL, RUNS);
    assertThat(rate).as(msg(what, rate, 0, hi, SEED)).isLessThan(hi);
  }

  @Test
  void aHoldoutOnATrueLineReadsInsideAtTheNominalRateInsideAndBeyondTheSweptDelays() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    double[] swept = {0, 2, 4};
    int insideWithin = 0;
    int insideBeyond = 0;
    int mutantNoHoldoutScatter = 0;
    int mutantZ = 0;
    for (int i = 0; i < RUNS; i++) {
      List<DelayPoint> fit = points(rnd, swept, 2, WhatIfErrorRateTest::line);
      List<DelayPoint> within = points(rnd, new double[] {1.5}, 2, WhatIfErrorRateTest::line);
      List<DelayPoint> beyond = points(rnd, new double[] {6}, 2, WhatIfErrorRateTest::line);
      WhatIf w = Sensitivity.whatIf(fit, 1.5, within, LEVEL);
      insideWithin += w.placement() == WhatIf.Placement.INSIDE ? 1 : 0;
      insideBeyond +=
          Sensitivity.whatIf(fit, 6, beyond, LEVEL).placement() == WhatIf.Placement.INSIDE ? 1 : 0;
      // Mutant 1: the line's own interval, as if the holdout's mean had no scatter of its own.
      WhatIf ci = Sensitivity.whatIf(fit, 1.5, List.of(), LEVEL);
      double measured = w.measured();
      mutantNoHoldoutScatter += ci.lower() <= measured && measured <= ci.upper() ? 1 : 0;
      // Mutant 2: z instead of t on 4 df, the same standard error (P(|t4| < 1.96) = 0.88).
      double yHat = 1000.0 / w.predicted();
      double tHalf = 1000.0 / w.lower() - yHat;
      double zHalf = tHalf * 1.96 / 2.776;
      double y = 1000.0 / measured;
      mutantZ += Math.abs(y - yHat) <= zHalf ? 1 : 0;
    }
    atNominal("holdout at 1.5 ms (inside the sweep) read INSIDE", (double) insideWithin / RUNS);
    atNominal("holdout at 6 ms (beyond the sweep) read INSIDE", (double) insideBeyond / RUNS);
    belowNominal(
        "mutant: the line's interval without the holdout's scatter",
        (double) mutantNoHoldoutScatter / RUNS);
    belowNominal("mutant: z for t on 4 df", (double) mutantZ / RUNS);
  }

  @Test
  void withoutAHoldoutTheLinesIntervalCoversTheTrueCeilingAtTheNominalRate() {
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    double truth = 1000.0 / line(1.5);
    int covered = 0;
    int mutantPredictedOnly = 0;
    for (int i = 0; i < RUNS; i++) {
      WhatIf w =
          Sensitivity.whatIf(
              points(rnd, new double[] {0, 2, 4}, 2, WhatIfErrorRateTest::line),
              1.5,
              List.of(),
              LEVEL);
      covered += w.lower() <= truth && truth <= w.upper() ? 1 : 0;
      // Mutant: a half-width shrunk by the square root of the points (a mean's, not a line's).
      double yHat = 1000.0 / w.predicted();
      double half = (1000.0 / w.lower() - yHat) / Math.sqrt(6);
      mutantPredictedOnly += Math.abs(1000.0 / truth - yHat) <= half ? 1 : 0;
    }
    atNominal("the line's interval at 1.5 ms covered the true ceiling", (double) covered / RUNS);
    belowNominal("mutant: a half-width shrunk by sqrt(n)", (double) mutantPredictedOnly / RUNS);
  }

  @Test
  void aHoldoutOnACpuPlateauReadsOutsideAlmostAlways() {
    // The relay cannot exceed 333/s (3 ms per event) whatever the link: the line fitted where the
    // link bounds it (2, 4, 6 ms) predicts 500/s at no added delay, and the holdout there measures
    // the plateau. The gap (1 ms per event) is about 8 standard errors of the prediction, so a
    // holdout that reads INSIDE more than 5% of the time means the check cannot see a plateau.
    DoubleUnaryOperator plateau = d -> Math.max(line(d), 3.0);
    SplittableRandom rnd = new SplittableRandom(SEED + 2);
    int outside = 0;
    for (int i = 0; i < RUNS; i++) {
      WhatIf w =
          Sensitivity.whatIf(
              points(rnd, new double[] {2, 4, 6}, 2, plateau),
              0,
              points(rnd, new double[] {0}, 2, plateau),
              LEVEL);
      outside += w.placement() == WhatIf.Placement.OUTSIDE ? 1 : 0;
    }
    double rate = (double) outside / RUNS;
    assertThat(rate)
        .as(msg("a plateau holdout read OUTSIDE", rate, 0.95, 1, SEED + 2))
        .isGreaterThan(0.95);
  }

  @Test
  void theLatencyLinesHoldoutReadsInsideAtTheNominalRateAndOutsideOnAPlateau() {
    SplittableRandom rnd = new SplittableRandom(SEED + 3);
    int inside = 0;
    int outside = 0;
    for (int i = 0; i < RUNS; i++) {
      List<LatencyPoint> fit = new ArrayList<>();
      List<LatencyPoint> fitFlat = new ArrayList<>();
      for (double d : new double[] {0, 2, 4}) {
        for (int r = 0; r < 2; r++) {
          fit.add(new LatencyPoint(d, r, 3 + 2 * d + 0.3 * rnd.nextGaussian()));
          // The same line, swept at 2, 4 and 6 ms only.
          fitFlat.add(new LatencyPoint(d + 2, r, 3 + 2 * (d + 2) + 0.3 * rnd.nextGaussian()));
        }
      }
      List<LatencyPoint> hold =
          List.of(
              new LatencyPoint(1.5, 0, 6 + 0.3 * rnd.nextGaussian()),
              new LatencyPoint(1.5, 1, 6 + 0.3 * rnd.nextGaussian()));
      inside +=
          Sensitivity.latencyWhatIf(fit, 1.5, hold, LEVEL).placement() == WhatIf.Placement.INSIDE
              ? 1
              : 0;
      // The latency cannot fall below 6 ms however fast the link: at no added delay the line
      // predicts 3 ms and the holdout measures the floor.
      List<LatencyPoint> floor =
          List.of(
              new LatencyPoint(0, 0, 6 + 0.3 * rnd.nextGaussian()),
              new LatencyPoint(0, 1, 6 + 0.3 * rnd.nextGaussian()));
      outside +=
          Sensitivity.latencyWhatIf(fitFlat, 0, floor, LEVEL).placement()
                  == WhatIf.Placement.OUTSIDE
              ? 1
              : 0;
    }
    atNominal("latency holdout at 1.5 ms read INSIDE", (double) inside / RUNS);
    double rate = (double) outside / RUNS;
    assertThat(rate)
        .as(msg("a latency floor holdout read OUTSIDE", rate, 0.95, 1, SEED + 3))
        .isGreaterThan(0.95);
  }
}
