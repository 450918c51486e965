package dev.ceiling.verdict;

import static dev.ceiling.verdict.ErrorRates.msg;
import static dev.ceiling.verdict.ErrorRates.sigma;
import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.ExperimentIdentity;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded error rate of the A/B equivalence reading through the whole verdict, on cells whose
 * accepted counts are binomial draws (1,000 events per cell, three cells per arm): when the
 * treatment's true cost is exactly delta (either sign), "equivalent within delta" is read at most
 * alpha of the time. Near 100% acceptance the cells' spread is often below the counts' floor, so
 * this exercises the floor where it decides. A too-confident mutant (equivalent when the point
 * estimate lies inside +-delta) must exceed the bound; a partner at zero cost must find
 * equivalence.
 *
 * <p>Seeded (override with -Dceiling.seed=N; the seed is in every message).
 */
class AbEquivalenceErrorRateTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_202L);
  private static final double DELTA = 0.05;
  private static final double ALPHA = 0.05;
  private static final int EVENTS = 1_000;
  private static final int CELLS = 3;
  private static final ExperimentIdentity ID =
      Fixtures.identity(List.of(100.0), CELLS).withEquivalenceMargin(DELTA);

  private static double[][] arm(SplittableRandom rnd, double p) {
    double[][] out = new double[1][CELLS];
    for (int c = 0; c < CELLS; c++) {
      int k = 0;
      for (int e = 0; e < EVENTS; e++) {
        k += rnd.nextDouble() < p ? 1 : 0;
      }
      out[0][c] = (double) k / EVENTS;
    }
    return out;
  }

  private static RateEquivalence once(SplittableRandom rnd, double pOn, double pOff) {
    VerdictReport v =
        Verdict.evaluate(
            new CombinedRun(
                ID, Fixtures.half(ID, ON, arm(rnd, pOn)), Fixtures.half(ID, OFF, arm(rnd, pOff))),
            VerdictConfig.defaults());
    return v.equivalence().rates().get(0);
  }

  @Test
  void aCostOfExactlyDeltaIsFalselyEquivalentAtMostAlpha() {
    int runs = 1_000;
    double hi = ALPHA + 3 * sigma(ALPHA, runs);
    // control - treatment = +delta (the treatment costs delta), then -delta (it gains delta).
    double[][] truths = {{0.945, 0.995}, {0.995, 0.945}};
    for (double[] truth : truths) {
      SplittableRandom rnd = new SplittableRandom(SEED);
      int equivalent = 0;
      int pointInside = 0;
      int floored = 0;
      for (int i = 0; i < runs; i++) {
        RateEquivalence r = once(rnd, truth[0], truth[1]);
        equivalent += r.reading() == RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA ? 1 : 0;
        pointInside += Math.abs(r.cost()) < DELTA ? 1 : 0;
        floored += r.binomialFloor() ? 1 : 0;
      }
      String at = "cost " + (truth[1] - truth[0]);
      double rate = (double) equivalent / runs;
      assertThat(rate)
          .as(msg("false equivalence at " + at, rate, 0, hi, SEED))
          .isLessThanOrEqualTo(hi);
      double mutant = (double) pointInside / runs;
      assertThat(mutant)
          .as(msg("point-estimate mutant at " + at, mutant, hi, 1, SEED))
          .isGreaterThan(hi);
      assertThat(floored).as("runs in which the floor set the standard error").isPositive();
    }
    // Partner: no true cost, and equivalence within 0.05 is found nearly always.
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    int found = 0;
    int partnerRuns = 200;
    for (int i = 0; i < partnerRuns; i++) {
      found +=
          once(rnd, 0.99, 0.99).reading() == RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA
              ? 1
              : 0;
    }
    double power = (double) found / partnerRuns;
    assertThat(power)
        .as(msg("equivalence found at cost 0", power, 0.9, 1, SEED))
        .isGreaterThan(0.9);
  }
}
