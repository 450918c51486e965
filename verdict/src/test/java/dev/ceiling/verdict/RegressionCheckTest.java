package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;

class RegressionCheckTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final double[] BASELINE = {400, 430, 370, 410, 390};
  private static final double[] WORSE = {350, 390, 330, 370, 360};
  private static final double[] TIGHT = {400, 402, 398, 401, 399};

  /** A treatment half at 600/s whose five busy, steady cells complete at the given rates. */
  private static HalfRun run(double[] completedPerS) {
    ExperimentIdentity id = Fixtures.identity(List.of(600.0), completedPerS.length);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < completedPerS.length; i++) {
      cells.add(
          Fixtures.cell(ON, 600.0, i, i, completedPerS[i] / 600.0).toBuilder()
              .auditCompletedPerS(completedPerS[i])
              .auditCompleted(Math.round(completedPerS[i] * 10))
              .build());
    }
    return Fixtures.half(id, ON, cells);
  }

  /** The guard must not pass a 40/s loss when only 20/s is tolerated. */
  private static void lossBeyondMarginIsCaught(BiPredicate<double[], double[]> noRegression) {
    assertThat(noRegression.test(BASELINE, WORSE)).as("a 40/s loss passed a 20/s margin").isFalse();
  }

  @Test
  void aLossBeyondTheMarginIsNotPassedEvenWhenIntervalsOverlap() {
    lossBeyondMarginIsCaught(
        (b, c) -> RegressionCheck.nonInferior("worker_rate_per_s", b, c, 20, 0.05).nonInferior());
    RegressionResult r = RegressionCheck.workerRate(run(BASELINE), run(WORSE), 20, CFG);
    assertThat(r.nonInferior()).isFalse();
    assertThat(r.difference()).isCloseTo(-40.0, offset(1e-9));
    assertThat(r.lowerBound()).isLessThan(-20.0);
    assertThat(r.message()).startsWith("not shown non-inferior: candidate - baseline = -40.0000");

    // Mutant: "no regression" read from overlapping per-arm 95% intervals.
    BiPredicate<double[], double[]> overlap =
        (b, c) -> {
          double[] bi = Welch.meanInterval(Sample.of(b), 0.95);
          double[] ci = Welch.meanInterval(Sample.of(c), 0.95);
          return ci[1] >= bi[0];
        };
    assertThatThrownBy(() -> lossBeyondMarginIsCaught(overlap)).isInstanceOf(AssertionError.class);
  }

  private static void equalRunsPass(BiPredicate<double[], double[]> noRegression) {
    assertThat(noRegression.test(TIGHT, TIGHT.clone())).isTrue();
  }

  @Test
  void anEqualRunIsNonInferior() {
    equalRunsPass(
        (b, c) -> RegressionCheck.nonInferior("worker_rate_per_s", b, c, 20, 0.05).nonInferior());
    RegressionResult r = RegressionCheck.workerRate(run(TIGHT), run(TIGHT), 20, CFG);
    assertThat(r.nonInferior()).isTrue();
    assertThat(r.baselineN()).isEqualTo(5);
    assertThat(r.lowerBound()).isGreaterThan(-20.0);

    // Mutant: the margin's sign flipped (demanding an improvement of 20/s).
    assertThatThrownBy(
            () ->
                equalRunsPass(
                    (b, c) ->
                        RegressionCheck.nonInferior("m", c, b, 0, 0.05).nonInferior()
                            && Sample.of(c).mean() - Sample.of(b).mean() > 20))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void matchesScipyOnKnownValues() {
    // scipy.stats.ttest_ind(t + 0.05, c, equal_var=False, alternative='greater'): p = 0.0974...
    double[] c = {0.99, 1.0, 1.0, 0.98, 1.0};
    double[] t = {0.95, 0.97, 0.93, 0.96, 0.99};
    RegressionResult r = RegressionCheck.nonInferior("x", c, t, 0.05, 0.05);
    assertThat(r.pValue()).isCloseTo(0.09741479808812296, offset(1e-9));
    assertThat(r.welchDf()).isCloseTo(5.248049921996885, offset(1e-9));
    assertThat(r.nonInferior()).isFalse();
    assertThat(r.lowerBound()).isLessThanOrEqualTo(-0.05);
  }

  @Test
  void acceptedOverOfferedUsesEvidenceCellsAtTheRate() {
    RegressionResult r =
        RegressionCheck.acceptedOverOffered(run(TIGHT), run(TIGHT), 600.0, 0.02, CFG);
    assertThat(r.metric()).isEqualTo("accepted_over_offered@600/s");
    assertThat(r.baselineN()).isEqualTo(5);
    assertThat(r.nonInferior()).isTrue();
  }

  @Test
  void tooFewOrConstantCellsAreNotShown() {
    RegressionResult few =
        RegressionCheck.nonInferior("x", new double[] {1}, new double[] {1, 2}, 0.1, 0.05);
    assertThat(few.nonInferior()).isFalse();
    assertThat(few.message())
        .isEqualTo("not shown non-inferior: needs 2 cells per run, has 1 baseline and 2 candidate");
    RegressionResult constant =
        RegressionCheck.nonInferior("x", new double[] {1, 1}, new double[] {1, 1}, 0.1, 0.05);
    assertThat(constant.nonInferior()).isFalse();
    assertThat(constant.pValue()).isNull();
  }
}
