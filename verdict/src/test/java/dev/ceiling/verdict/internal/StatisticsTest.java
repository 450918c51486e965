package dev.ceiling.verdict.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleBinaryOperator;
import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * Known answers for the statistics. Reference values were computed independently with SciPy 1.17
 * ({@code scipy.stats.ttest_ind(c, t, equal_var=False, alternative='greater')} and {@code
 * scipy.stats.t.isf}), and are compared at 1e-9 relative, the precision both libraries state.
 */
class StatisticsTest {
  private static final double[] CONTROL = {0.99, 1.0, 1.0, 0.98, 1.0};
  private static final double[] TREATMENT = {0.95, 0.97, 0.93, 0.96, 0.99};

  @Test
  void welchMatchesScipy() {
    Welch.Result r = Welch.test(Sample.of(CONTROL), Sample.of(TREATMENT), 0.0);
    assertThat(r.t()).isCloseTo(3.1568207490098965, offset(1e-9));
    assertThat(r.df()).isCloseTo(5.248049921996885, offset(1e-9));
    assertThat(r.pGreater()).isCloseTo(0.011782960154646293, offset(1e-9));
    assertThat(r.difference()).isCloseTo(0.034, offset(1e-12));
    assertThat(r.standardError()).isCloseTo(0.010770329614269002, offset(1e-12));
  }

  @Test
  void welchWithAShiftedNullMatchesScipy() {
    // H0: treatment - control <= -0.05 is scipy's test of (treatment + 0.05) against control.
    Welch.Result r = Welch.test(Sample.of(TREATMENT), Sample.of(CONTROL), -0.05);
    assertThat(r.t()).isCloseTo(1.4855627054164067, offset(1e-9));
    assertThat(r.pGreater()).isCloseTo(0.09741479808812296, offset(1e-9));
  }

  /** The quantile at fractional df comes from the library, not a table. */
  @Test
  void quantileAtFractionalDfIsExactNotTabled() {
    Consumer<DoubleBinaryOperator> exact =
        q -> {
          assertThat(q.applyAsDouble(7.5, 0.05 / 6)).isCloseTo(3.067097062892846, offset(1e-9));
          assertThat(q.applyAsDouble(4, 0.025)).isCloseTo(2.7764451051977943, offset(1e-9));
        };
    exact.accept(Welch::tUpper);
    exact.accept(Welch::tUpper); // the second call reads the whole-df memo

    // Mutant: a table that rounds df down to the nearest whole row (df 7 at 7.5).
    DoubleBinaryOperator table =
        (df, p) -> TDistribution.of(Math.floor(df)).inverseSurvivalProbability(p);
    assertThatThrownBy(() -> exact.accept(table)).isInstanceOf(AssertionError.class);
  }

  @Test
  void meanIntervalOfAConstantSampleIsAPoint() {
    double[] ci = Welch.meanInterval(Sample.of(new double[] {1.0, 1.0, 1.0}), 0.95);
    assertThat(ci).containsExactly(1.0, 1.0);
  }

  @Test
  void constantSampleHasExactlyZeroVariance() {
    // 0.1 + 0.1 + 0.1 sums with rounding; the constant rule must not leak it into the variance.
    Sample s = Sample.of(new double[] {0.1, 0.1, 0.1});
    assertThat(s.variance()).isZero();
    assertThat(s.mean()).isEqualTo(0.1);
    assertThatThrownBy(() -> Welch.test(s, s, 0.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive standard error");
  }

  @Test
  void degenerateInputsAreRefusedWithTheRule() {
    assertThatThrownBy(() -> Sample.of(new double[0]))
        .hasMessage("a sample needs at least one value, got []");
    assertThatThrownBy(
            () -> Welch.test(Sample.of(new double[] {1}), Sample.of(new double[] {1, 2}), 0))
        .hasMessage("Welch's test needs n >= 2 in each sample, got 1 and 2");
  }

  @Test
  void holmMatchesTheWorkedExample() {
    // Sorted: 0.005 x4 = 0.02; 0.01 x3 = 0.03; 0.03 x2 = 0.06; 0.04 x1 = 0.04 -> max 0.06.
    double[] p = {0.01, 0.04, 0.03, 0.005};
    Consumer<double[]> holm =
        adj ->
            assertThat(adj).containsExactly(new double[] {0.03, 0.06, 0.06, 0.02}, offset(1e-15));
    holm.accept(Holm.adjust(p));

    // Mutants: single-step Bonferroni; step-down without the running maximum.
    double[] bonferroni = {0.04, 0.16, 0.12, 0.02};
    double[] noMonotone = {0.03, 0.04, 0.06, 0.02};
    for (double[] mutant : List.of(bonferroni, noMonotone)) {
      assertThatThrownBy(() -> holm.accept(mutant)).isInstanceOf(AssertionError.class);
    }
  }

  @Test
  void holmCapsAtOne() {
    assertThat(Holm.adjust(new double[] {0.6, 0.9})).containsExactly(1.0, 1.0);
    assertThat(Holm.adjust(new double[0])).isEmpty();
  }

  @Test
  void aLoneDipIsNotAKnee() {
    var b = Knee.State.BELOW;
    var t = Knee.State.TRACKING;
    var u = Knee.State.UNKNOWN;
    Knee.Result r = Knee.find(List.of(t, t, b, t, b, b));
    assertThat(r.knee()).isEqualTo(4);
    assertThat(r.highestPassing()).isEqualTo(3);
    assertThat(r.loneDips()).containsExactly(2);
    // An unknown rate breaks the run of "below": still no knee.
    assertThat(Knee.find(List.of(t, b, u, b)).knee()).isNull();
    // A dip at the last rate cannot be confirmed.
    Knee.Result last = Knee.find(List.of(t, t, b));
    assertThat(last.knee()).isNull();
    assertThat(last.highestPassing()).isEqualTo(1);
    assertThat(last.loneDips()).containsExactly(2);
  }
}
