package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The regression gate's pieces: the plan check, and the relative margin's error rate.
 *
 * <p>Seeded (override with -Dceiling.seed=N; the seed is in every message).
 */
class BaselineCompareTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_202L);
  private static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final double[] BASELINE = {400, 430, 370, 410, 390};
  private static final double[] WORSE = {350, 390, 330, 370, 360};

  /** A treatment half at 600/s whose busy, steady cells complete at the given rates. */
  private static HalfRun run(ExperimentIdentity id, String arm, double[] completedPerS) {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < completedPerS.length; i++) {
      cells.add(
          Fixtures.cell(arm, 600.0, i, i, completedPerS[i] / 600.0).toBuilder()
              .auditCompletedPerS(completedPerS[i])
              .auditCompleted(Math.round(completedPerS[i] * 10))
              .build());
    }
    return Fixtures.half(id, arm, cells);
  }

  private static HalfRun run(double[] completedPerS) {
    return run(Fixtures.identity(List.of(600.0), completedPerS.length), ON, completedPerS);
  }

  @Test
  void runsOfOnePlanHaveNoDifferences() {
    assertThat(BaselineCompare.planDifferences(run(BASELINE), run(WORSE))).isEmpty();
  }

  @Test
  void everyPlanDifferenceIsListed() {
    HalfRun other = run(Fixtures.identity(List.of(600.0), BASELINE.length, 3.0), OFF, BASELINE);
    List<String> d = BaselineCompare.planDifferences(run(BASELINE), other);
    assertThat(d)
        .as("%s", d)
        .anySatisfy(l -> assertThat(l).startsWith("duration_s differs: baseline"))
        .anySatisfy(l -> assertThat(l).startsWith("arm differs: baseline on vs candidate off"))
        .hasSize(2);
  }

  @Test
  void aRelativeMarginIsThatFractionOfTheBaselinesEstimate() {
    RegressionResult r =
        BaselineCompare.workerRate(
            run(BASELINE), run(WORSE), new BaselineCompare.Margin(0.05, true), CFG);
    assertThat(r.margin()).isCloseTo(20.0, offset(1e-9));
    assertThat(r.nonInferior()).as(r.message()).isFalse();
    // Partner: the same loss of 40/s inside a margin of 25% (100/s) is shown non-inferior.
    RegressionResult wide =
        BaselineCompare.workerRate(
            run(BASELINE), run(WORSE), new BaselineCompare.Margin(0.25, true), CFG);
    assertThat(wide.nonInferior()).as(wide.message()).isTrue();
  }

  @Test
  void marginsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> new BaselineCompare.Margin(1.0, true)).hasMessageContaining("[0, 1)");
    assertThatThrownBy(() -> new BaselineCompare.Margin(-1, false)).hasMessageContaining(">= 0");
    assertThat(new BaselineCompare.Margin(0.05, true).text()).isEqualTo("5%");
    assertThat(new BaselineCompare.Margin(10, false).text()).isEqualTo("10/s");
  }

  /** A relative-margin procedure on raw values: true when it passes the candidate. */
  private interface Procedure {
    boolean passes(double[] baseline, double[] candidate, double fraction, double alpha);
  }

  /**
   * The false-pass rate at the margin: the candidate's true mean is exactly (1 - fraction) times
   * the baseline's, so every pass is a false pass.
   */
  private static double falsePassRate(Procedure p, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int trials = 4000;
    int n = 5;
    double fraction = 0.05;
    int passes = 0;
    for (int t = 0; t < trials; t++) {
      double[] b = new double[n];
      double[] c = new double[n];
      for (int i = 0; i < n; i++) {
        b[i] = 100 + 10 * gaussian(rnd);
        c[i] = 100 * (1 - fraction) + 10 * gaussian(rnd);
      }
      passes += p.passes(b, c, fraction, 0.05) ? 1 : 0;
    }
    return passes / (double) trials;
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller: SplittableRandom has no nextGaussian before Java 17's RandomGenerator default.
    return Math.sqrt(-2 * Math.log(1 - rnd.nextDouble()))
        * Math.cos(2 * Math.PI * rnd.nextDouble());
  }

  // Alpha plus three binomial standard errors at 4,000 trials.
  private static final double LIMIT = 0.05 + 3 * Math.sqrt(0.05 * 0.95 / 4000);

  @Test
  void theRelativeMarginsFalsePassRateAtTheMarginIsAtMostAlpha() {
    double rate =
        falsePassRate(
            (b, c, f, a) -> BaselineCompare.relative("m", b, c, f, a).nonInferior(), SEED);
    assertThat(rate)
        .as("false-pass rate at the margin (seed %d; replay: -Dceiling.seed=%d)", SEED, SEED)
        .isLessThanOrEqualTo(LIMIT);
  }

  @Test
  void aTooConfidentMutantThatIgnoresTheBaselinesNoiseIsCaught() {
    // The mutant treats the baseline's mean as known: its variance never enters the test.
    double rate =
        falsePassRate(
            (b, c, f, a) -> {
              double mean = Arrays.stream(b).average().orElseThrow();
              double[] known = new double[b.length];
              Arrays.fill(known, mean);
              return BaselineCompare.relative("m", known, c, f, a).nonInferior();
            },
            SEED);
    assertThat(rate)
        .as("the mutant's false-pass rate (seed %d; replay: -Dceiling.seed=%d)", SEED, SEED)
        .isGreaterThan(LIMIT);
  }
}
