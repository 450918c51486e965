package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Known answers for the two-sample TOST and the per-rate raise-or-equivalence readings. Reference
 * figures from SciPy 1.17: each one-sided test is {@code scipy.stats.ttest_ind(c +- delta, b,
 * equal_var=False, alternative=...)}, Holm's adjustment by hand; compared at 1e-9.
 */
class EquivalenceTest {
  private static final double[] BASE = {0.80, 0.82, 0.79, 0.81, 0.80};
  private static final double[] NEAR = {0.81, 0.80, 0.83, 0.82, 0.80};
  private static final double[] WIDE_BASE = {0.5, 0.9, 0.7};
  private static final double[] WIDE_CAND = {0.6, 0.95, 0.4};

  @Test
  void twoSampleTostMatchesScipy() {
    Tost t = TwoSampleTost.test(BASE, NEAR, 0.05, 0.05);
    assertThat(t.estimate()).isCloseTo(0.008, offset(1e-12));
    assertThat(t.standardError()).isCloseTo(0.00774596669241481, offset(1e-12));
    assertThat(t.df()).isCloseTo(7.860262008733627, offset(1e-9));
    assertThat(t.pBelow()).isCloseTo(3.8415612642797696e-05, offset(1e-12));
    assertThat(t.pAbove()).isCloseTo(0.0003339303631885803, offset(1e-12));
    assertThat(t.p()).isEqualTo(t.pAbove());
    assertThat(t.lower()).isCloseTo(-0.00643726427840414, offset(1e-9));
    assertThat(t.upper()).isCloseTo(0.02243726427840393, offset(1e-9));
    assertThat(t.level()).isCloseTo(0.9, offset(1e-15));
    assertThat(t.reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(t.inWords())
        .isEqualTo("0.0080, 90% interval [-0.0064, 0.0224] inside 0 +- 0.05 (TOST p = 0.0003)");
  }

  /** On wide intervals the honest reading is INCONCLUSIVE, never "equivalent". */
  private static void wideIntervalsAreNotEquivalence(BiPredicate<double[], double[]> equivalent) {
    assertThat(equivalent.test(WIDE_BASE, WIDE_CAND))
        .as("overlapping wide intervals read as equivalence")
        .isFalse();
    // Partner: a tight pair within the margin is equivalent by the same predicate.
    assertThat(equivalent.test(BASE, NEAR)).isTrue();
  }

  @Test
  void overlappingIntervalsAreNotEquivalence() {
    wideIntervalsAreNotEquivalence(
        (b, c) -> TwoSampleTost.test(b, c, 0.05, 0.05).reading() == Tost.Reading.CONSISTENT);
    Tost wide = TwoSampleTost.test(WIDE_BASE, WIDE_CAND, 0.05, 0.05);
    assertThat(wide.reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(wide.pBelow()).isCloseTo(0.5, offset(1e-9));
    assertThat(wide.pAbove()).isCloseTo(0.32123563417639805, offset(1e-9));
    // The per-arm 95% intervals, [0.2032, 1.1968] and [-0.0416, 1.3416], overlap almost wholly.
    double[] bi = Welch.meanInterval(Sample.of(WIDE_BASE), 0.95);
    double[] ci = Welch.meanInterval(Sample.of(WIDE_CAND), 0.95);
    assertThat(bi[0]).isCloseTo(0.2031724576499338, offset(1e-9));
    assertThat(ci[1]).isCloseTo(1.34155467119228, offset(1e-9));

    // Mutant: "equivalent" read from overlapping per-arm 95% intervals.
    BiPredicate<double[], double[]> overlap =
        (b, c) -> {
          double[] x = Welch.meanInterval(Sample.of(b), 0.95);
          double[] y = Welch.meanInterval(Sample.of(c), 0.95);
          return x[0] <= y[1] && y[0] <= x[1];
        };
    assertThatThrownBy(() -> wideIntervalsAreNotEquivalence(overlap))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void theThreeReadingsOfATost() {
    assertThat(Tost.of(6.0, 0.1, 10, 6, 0.5, 0.05).reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(Tost.of(7.0, 0.1, 10, 6, 0.5, 0.05).reading())
        .isEqualTo(Tost.Reading.NOT_CONSISTENT);
    assertThat(Tost.of(4.0, 0.1, 10, 6, 0.5, 0.05).reading())
        .isEqualTo(Tost.Reading.NOT_CONSISTENT);
    // Centered exactly, but so wide that it reaches past both edges: no claim either way.
    assertThat(Tost.of(6.0, 1.0, 10, 6, 0.5, 0.05).reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    Tost constant = Tost.of(6.0, 0.0, 10, 6, 0.5, 0.05);
    assertThat(constant.reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(constant.p()).isNull();
    assertThat(constant.untestableReason())
        .isEqualTo(
            "the standard error is exactly 0: constant data gives no estimate of sampling error");
  }

  @Test
  void degenerateSamplesAreInconclusiveAndBadArgumentsAreNamed() {
    Tost one = TwoSampleTost.test(new double[] {1}, new double[] {1, 2}, 0.1, 0.05);
    assertThat(one.untestableReason())
        .isEqualTo("needs 2 values per sample, has 1 baseline and 2 candidate");
    Tost flat = TwoSampleTost.test(new double[] {1, 1}, new double[] {1, 1}, 0.1, 0.05);
    assertThat(flat.reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(flat.untestableReason())
        .isEqualTo("both samples are exactly constant: no estimate of sampling error");
    assertThatThrownBy(() -> TwoSampleTost.test(new double[0], new double[] {Double.NaN}, 0, 0.5))
        .hasMessage(
            "baseline must have at least one value, got 0; candidate values must be finite;"
                + " margin must be a finite number > 0, got 0.0; alpha must be in (0, 0.5), got"
                + " 0.5");
  }

  private static RateSamples at(double rate, double[] b, double[] c) {
    return new RateSamples(
        rate,
        java.util.Arrays.stream(b).boxed().toList(),
        java.util.Arrays.stream(c).boxed().toList());
  }

  @Test
  void raiseOrEquivalenceMatchesScipyWithHolm() {
    double[] low = {0.50, 0.52, 0.49, 0.51, 0.50};
    double[] high = {0.80, 0.82, 0.79, 0.81, 0.83};
    List<RateReading> r =
        RaiseOrEquivalence.judge(
            List.of(
                at(100, BASE, NEAR),
                at(200, low, high),
                at(300, WIDE_BASE, WIDE_CAND),
                at(400, BASE, new double[] {0.8})),
            0.05,
            0.05);
    assertThat(r)
        .extracting(RateReading::reading)
        .containsExactly(
            RateReading.Reading.EQUIVALENT_WITHIN_DELTA,
            RateReading.Reading.RAISES,
            RateReading.Reading.INCONCLUSIVE,
            RateReading.Reading.INCONCLUSIVE);
    assertThat(r.get(0).pRaise()).isCloseTo(0.1662135575732614, offset(1e-9));
    assertThat(r.get(0).pRaiseAdjusted()).isCloseTo(0.3324271151465228, offset(1e-9));
    assertThat(r.get(0).pEquivalenceAdjusted()).isCloseTo(0.0010017910895657408, offset(1e-9));
    assertThat(r.get(1).pRaise()).isCloseTo(1.0964262930592102e-09, withinPercentage(1e-5));
    assertThat(r.get(1).pRaiseAdjusted()).isCloseTo(3.2892788791776307e-09, withinPercentage(1e-5));
    assertThat(r.get(1).pEquivalenceAdjusted()).isCloseTo(1.0, offset(1e-9));
    assertThat(r.get(2).pRaiseAdjusted()).isCloseTo(0.592903620361725, offset(1e-9));
    assertThat(r.get(2).pEquivalenceAdjusted()).isCloseTo(1.0, offset(1e-9));
    RateReading few = r.get(3);
    assertThat(few.pRaise()).isNull();
    assertThat(few.equivalence()).isNull();
    assertThat(few.difference()).isCloseTo(0.8 - 0.804, offset(1e-12));
    assertThat(few.note())
        .isEqualTo("not comparable: needs 2 values per arm, has 5 baseline and 1 candidate");
  }

  /** A raise of +0.010, shown, inside +-0.05: the old precedence would read it RAISES. */
  private static final double[] FLAT = {0.800, 0.801, 0.799, 0.800, 0.800};

  private static final double[] A_LITTLE_HIGHER = {0.810, 0.811, 0.809, 0.810, 0.810};

  /** A raise of +0.100, shown, and wholly outside +-0.05. */
  private static final double[] MUCH_HIGHER = {0.900, 0.901, 0.899, 0.900, 0.900};

  /**
   * A raise smaller than delta, the smallest difference declared to matter, reads equivalent with a
   * note; a raise larger than delta still reads RAISES. {@code rule} maps a judged rate's figures
   * to its reading.
   */
  private static void aRaiseWithinDeltaIsEquivalent(
      Function<RateReading, RateReading.Reading> rule) {
    RateReading small =
        RaiseOrEquivalence.judge(List.of(at(100, FLAT, A_LITTLE_HIGHER)), 0.05, 0.05).get(0);
    // The case distinguishes the precedences: both questions are answered yes.
    assertThat(small.pRaiseAdjusted()).isLessThanOrEqualTo(0.05);
    assertThat(small.pEquivalenceAdjusted()).isLessThanOrEqualTo(0.05);
    assertThat(rule.apply(small)).isEqualTo(RateReading.Reading.EQUIVALENT_WITHIN_DELTA);
    // Partner: a raise beyond delta is a raise that matters.
    RateReading large =
        RaiseOrEquivalence.judge(List.of(at(100, FLAT, MUCH_HIGHER)), 0.05, 0.05).get(0);
    assertThat(rule.apply(large)).isEqualTo(RateReading.Reading.RAISES);
  }

  @Test
  void aSmallShownRaiseWithinDeltaReadsEquivalentAndSaysItIsARaise() {
    aRaiseWithinDeltaIsEquivalent(RateReading::reading);
    RateReading r =
        RaiseOrEquivalence.judge(List.of(at(100, FLAT, A_LITTLE_HIGHER)), 0.05, 0.05).get(0);
    assertThat(r.equivalence().reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(r.note())
        .isEqualTo(
            "a raise of +0.010 [+0.009, +0.011] is shown, but it lies within +-0.05, the smallest"
                + " difference declared to matter");
    assertThat(
            RaiseOrEquivalence.judge(List.of(at(100, FLAT, MUCH_HIGHER)), 0.05, 0.05).get(0).note())
        .isNull();

    // Mutant: the old precedence, a shown raise reads RAISES whatever the TOST says.
    Function<RateReading, RateReading.Reading> raiseFirst =
        x ->
            x.pRaiseAdjusted() <= 0.05
                ? RateReading.Reading.RAISES
                : x.pEquivalenceAdjusted() <= 0.05
                    ? RateReading.Reading.EQUIVALENT_WITHIN_DELTA
                    : RateReading.Reading.INCONCLUSIVE;
    assertThatThrownBy(() -> aRaiseWithinDeltaIsEquivalent(raiseFirst))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void constantArmsAreComparableButNeverDecide() {
    double[] one = {1.0, 1.0, 1.0};
    List<RateReading> r =
        RaiseOrEquivalence.judge(List.of(at(100, one, one), at(200, BASE, NEAR)), 0.05, 0.05);
    assertThat(r.get(0).reading()).isEqualTo(RateReading.Reading.INCONCLUSIVE);
    assertThat(r.get(0).pRaise()).isEqualTo(1.0);
    assertThat(r.get(0).note())
        .isEqualTo("both samples are exactly constant: no estimate of sampling error");
    // The constant rate counts in m = 2: Holm doubles the other rate's TOST p.
    assertThat(r.get(1).pEquivalenceAdjusted()).isCloseTo(2 * 0.0003339303631885803, offset(1e-12));
  }

  @Test
  void badGridsAreRefused() {
    assertThatThrownBy(() -> RaiseOrEquivalence.judge(List.of(), -1, 0.05))
        .hasMessage("rates must not be empty; delta must be a finite number > 0, got -1.0");
    assertThatThrownBy(
            () -> RaiseOrEquivalence.judge(List.of(at(1, BASE, NEAR), at(1, BASE, NEAR)), 1, 0.05))
        .hasMessage("each rate must appear once");
    assertThatThrownBy(() -> at(0, new double[] {Double.NaN}, BASE))
        .hasMessage(
            "offered_per_s must be a finite number > 0, got 0.0; every value must be finite at 0.0/s");
  }
}
