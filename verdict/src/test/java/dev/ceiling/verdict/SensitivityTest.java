package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Known answers for the delay-sweep fit. Reference figures were computed independently with NumPy
 * 2.4 and SciPy 1.17 in matrix form ({@code numpy.linalg.lstsq} on the sqrt(w)-scaled design, the
 * covariance s^2 (X'WX)^-1, {@code scipy.stats.t.ppf}, {@code scipy.stats.f.sf}, the group-level
 * hat matrix for the departures), not from this code's closed form, and are compared at 1e-9.
 */
class SensitivityTest {
  static final double[] N_DELAYS_MS = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  static final double[] N_CEILINGS = {430, 620, 480, 118, 131, 125, 70, 73.5, 71, 49, 51.5, 50.5};
  static final double[] M_CEILINGS = {400, 480, 440, 120, 115, 124, 68.5, 70, 69, 49.5, 48.8, 50};
  private static final double[] A_DELAYS_MS = {0, 0, 0, .5, .5, .5, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  private static final double[] A_CEILINGS = {
    670, 655, 662, 224, 219, 221.5, 134, 132, 133.5, 74.5, 73.6, 74.1, 51.5, 51.0, 51.3
  };

  /** CPU-bound below about 0.7 ms (1/C flat at 5 ms per event), then 6 round trips per event. */
  private static final double[] PLATEAU_DELAYS_MS = {
    0, 0, 0, .5, .5, .5, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4
  };

  private static final double[] PLATEAU_CEILINGS = {
    200.5, 199.6, 200.1, 199.8, 200.3, 200.0, 143.0, 142.6, 142.9, 77.0, 76.8, 76.95, 52.7, 52.55,
    52.6, 40.05, 39.95, 40.0
  };

  /** Points with repeat indices 0, 1, ... per delay, weights optional. */
  static List<DelayPoint> points(double[] delaysMs, double[] ceilings, double[] weights) {
    List<DelayPoint> out = new ArrayList<>();
    for (int i = 0; i < delaysMs.length; i++) {
      int repeat = 0;
      for (int j = 0; j < i; j++) {
        repeat += delaysMs[j] == delaysMs[i] ? 1 : 0;
      }
      out.add(
          new DelayPoint(delaysMs[i], repeat, ceilings[i], weights == null ? null : weights[i]));
    }
    return out;
  }

  static SensitivityFit fit(double[] delaysMs, double[] ceilings) {
    return Sensitivity.fit(points(delaysMs, ceilings, null), 0.95, 0.05);
  }

  @Test
  void unweightedFitMatchesNumpy() {
    SensitivityFit f = fit(A_DELAYS_MS, A_CEILINGS);
    assertThat(f.points()).isEqualTo(15);
    assertThat(f.delays()).isEqualTo(5);
    Estimate k = f.roundTripsPerEvent();
    assertThat(k.value()).isCloseTo(5.997203646031111, offset(1e-9));
    assertThat(k.standardError()).isCloseTo(0.01407016988877454, offset(1e-9));
    assertThat(k.df()).isEqualTo(13.0);
    assertThat(k.lower()).isCloseTo(5.966806892012296, offset(1e-9));
    assertThat(k.upper()).isCloseTo(6.027600400049926, offset(1e-9));
    Estimate c = f.interceptMsPerEvent();
    assertThat(c.value()).isCloseTo(1.5121436869737293, offset(1e-9));
    assertThat(c.standardError()).isCloseTo(0.023753180628961812, offset(1e-9));
    assertThat(c.lower()).isCloseTo(1.460828060051621, offset(1e-9));
    assertThat(c.upper()).isCloseTo(1.5634593138958375, offset(1e-9));
    assertThat(f.residualSdMsPerEvent()).isCloseTo(0.0586913319337891, offset(1e-9));
    LackOfFit lof = f.lackOfFit();
    assertThat(lof.status()).isEqualTo(LackOfFit.Status.NOT_REJECTED);
    assertThat(lof.f()).isCloseTo(0.01188756284147823, offset(1e-9));
    assertThat(lof.dfLackOfFit()).isEqualTo(3);
    assertThat(lof.dfPureError()).isEqualTo(10);
    assertThat(lof.pValue()).isCloseTo(0.9981047416133492, offset(1e-9));
    assertThat(lof.levels())
        .extracting(LevelDeparture::standardized)
        .satisfiesExactly(
            z -> assertThat(z).isCloseTo(-0.08001226953529214, offset(1e-9)),
            z -> assertThat(z).isCloseTo(0.1345902630780679, offset(1e-9)),
            z -> assertThat(z).isCloseTo(0.01013741151961644, offset(1e-9)),
            z -> assertThat(z).isCloseTo(-0.1491895566713095, offset(1e-9)),
            z -> assertThat(z).isCloseTo(0.11380015541597117, offset(1e-9)));
    assertThat(lof.departing()).isEmpty();
    assertThat(f.established()).isTrue();
    assertThat(f.message())
        .isEqualTo(
            "k = 5.9972 [5.9668, 6.0276] round trips per event, c = 1.5121 [1.4608, 1.5635] ms"
                + " per event (95%); the line holds (lack of fit F = 0.0119 on 3 and 10 df,"
                + " p = 0.9981): k is established");
  }

  @Test
  void weightedFitMatchesNumpyAndDiffersFromUnweighted() {
    double[] w = new double[A_DELAYS_MS.length];
    for (int i = 0; i < w.length; i++) {
      w[i] = 1 / ((0.05 + 0.3 * A_DELAYS_MS[i]) * (0.05 + 0.3 * A_DELAYS_MS[i]));
    }
    SensitivityFit f = Sensitivity.fit(points(A_DELAYS_MS, A_CEILINGS, w), 0.95, 0.05);
    assertThat(f.roundTripsPerEvent().value()).isCloseTo(6.000109916164246, offset(1e-9));
    assertThat(f.roundTripsPerEvent().standardError()).isCloseTo(0.01952431632677346, offset(1e-9));
    assertThat(f.roundTripsPerEvent().lower()).isCloseTo(5.95793019513302, offset(1e-9));
    assertThat(f.interceptMsPerEvent().value()).isCloseTo(1.51016947481828, offset(1e-9));
    assertThat(f.interceptMsPerEvent().standardError())
        .isCloseTo(0.005436428737619694, offset(1e-9));
    assertThat(f.residualSdMsPerEvent()).isCloseTo(0.19119024676174132, offset(1e-9));
    assertThat(f.lackOfFit().f()).isCloseTo(0.017072305657647033, offset(1e-9));
    assertThat(f.lackOfFit().pValue()).isCloseTo(0.9967577271724534, offset(1e-9));
    assertThat(f.lackOfFit().levels().get(0).standardized())
        .isCloseTo(-0.2091724573982744, offset(1e-9));
    assertThat(f.lackOfFit().levels().get(4).standardized())
        .isCloseTo(-0.043464809374343126, offset(1e-9));
    // Only ratios of weights matter.
    double[] scaled = w.clone();
    for (int i = 0; i < scaled.length; i++) {
      scaled[i] *= 1e-3;
    }
    SensitivityFit same = Sensitivity.fit(points(A_DELAYS_MS, A_CEILINGS, scaled), 0.95, 0.05);
    assertThat(same.roundTripsPerEvent().standardError())
        .isCloseTo(f.roundTripsPerEvent().standardError(), offset(1e-12));
  }

  @Test
  void theOrderOfThePointsDoesNotMatter() {
    List<DelayPoint> pts = new ArrayList<>(points(A_DELAYS_MS, A_CEILINGS, null));
    SensitivityFit forward = Sensitivity.fit(pts, 0.95, 0.05);
    java.util.Collections.reverse(pts);
    assertThat(Sensitivity.fit(pts, 0.95, 0.05)).isEqualTo(forward);
  }

  /** A plateau at small delays is not a line: k must not be called established there. */
  private static void plateauIsNotEstablished(Predicate<List<DelayPoint>> establishes) {
    assertThat(establishes.test(points(PLATEAU_DELAYS_MS, PLATEAU_CEILINGS, null)))
        .as("a CPU-bound plateau read as a line")
        .isFalse();
    // Partner: the same check establishes a sweep that does lie on a line.
    assertThat(establishes.test(points(N_DELAYS_MS, N_CEILINGS, null))).isTrue();
  }

  @Test
  void aPlateauFailsTheLackOfFitTestAndIsNamed() {
    plateauIsNotEstablished(p -> Sensitivity.fit(p, 0.95, 0.05).established());
    SensitivityFit f = fit(PLATEAU_DELAYS_MS, PLATEAU_CEILINGS);
    LackOfFit lof = f.lackOfFit();
    assertThat(lof.status()).isEqualTo(LackOfFit.Status.REJECTED);
    assertThat(lof.f()).isCloseTo(13770.91432710978, withinPercentage(1e-7));
    assertThat(lof.pValue()).isCloseTo(7.4713695628977835e-22, withinPercentage(1e-6));
    assertThat(f.roundTripsPerEvent().value()).isCloseTo(5.306116735015389, offset(1e-9));
    // Largest departure first: the plateau's first point, 226 pure-error standard errors above.
    assertThat(lof.departing().get(0).addedDelayMs()).isEqualTo(0.0);
    assertThat(lof.departing().get(0).standardized()).isCloseTo(226.52692337446382, offset(1e-7));
    assertThat(lof.departing())
        .extracting(LevelDeparture::addedDelayMs)
        .containsExactly(0.0, 1.0, 4.0, 0.5, 2.0, 3.0);
    assertThat(f.message())
        .endsWith(
            "the line does not hold (lack of fit F = 13770.9143 on 4 and 12 df, p = 7.47e-22),"
                + " departing delays 0 ms (226.5269), 1 ms (-134.5415), 4 ms (100.4339), 0.5 ms"
                + " (-73.8929), 2 ms (-63.8836), 3 ms (4.0566): k is not established");

    // Mutant: a fit on the delays' means ignores the repeats, so it has no pure error and no
    // lack-of-fit test; it reports its slope as established whenever it can draw a line.
    Predicate<List<DelayPoint>> meansOnly =
        p -> {
          List<DelayPoint> means = new ArrayList<>();
          p.stream()
              .mapToDouble(DelayPoint::addedDelayMs)
              .distinct()
              .forEach(
                  d ->
                      means.add(
                          new DelayPoint(
                              d,
                              0,
                              1000
                                  / p.stream()
                                      .filter(q -> q.addedDelayMs() == d)
                                      .mapToDouble(DelayPoint::msPerEvent)
                                      .average()
                                      .orElseThrow())));
          return Sensitivity.fit(means, 0.95, 0.05).roundTripsPerEvent().standardError() > 0;
        };
    assertThatThrownBy(() -> plateauIsNotEstablished(meansOnly)).isInstanceOf(AssertionError.class);
  }

  @Test
  void withoutRepeatsOrWithTwoDelaysTheLineIsNotTestedAndNotEstablished() {
    SensitivityFit noRepeats =
        Sensitivity.fit(
            List.of(new DelayPoint(0, 0, 500), new DelayPoint(1, 0, 130), new DelayPoint(2, 0, 72)),
            0.95,
            0.05);
    assertThat(noRepeats.lackOfFit().status()).isEqualTo(LackOfFit.Status.UNTESTABLE);
    assertThat(noRepeats.lackOfFit().untestableReason())
        .isEqualTo("no delay has a repeat, so there is no pure error");
    assertThat(noRepeats.lackOfFit().levels()).allMatch(l -> l.standardized() == null);
    assertThat(noRepeats.established()).isFalse();
    assertThat(noRepeats.message())
        .endsWith(
            "lack of fit not testable: no delay has a repeat, so there is no pure error: k is not"
                + " established");

    SensitivityFit twoDelays =
        Sensitivity.fit(
            List.of(
                new DelayPoint(0, 0, 500),
                new DelayPoint(0, 1, 480),
                new DelayPoint(2, 0, 72),
                new DelayPoint(2, 1, 70)),
            0.95,
            0.05);
    assertThat(twoDelays.lackOfFit().untestableReason())
        .isEqualTo("a line needs 3 delays to be tested, has 2");
    assertThat(twoDelays.established()).isFalse();
  }

  @Test
  void identicalRepeatsGiveNoPureErrorAndNoClaim() {
    // Exactly on a line, every repeat identical: zero scatter is not evidence of precision.
    List<DelayPoint> exact = new ArrayList<>();
    for (int d = 0; d <= 3; d++) {
      for (int r = 0; r < 2; r++) {
        exact.add(new DelayPoint(d, r, 1000.0 / (2 + 4 * d)));
      }
    }
    SensitivityFit f = Sensitivity.fit(exact, 0.95, 0.05);
    assertThat(f.roundTripsPerEvent().value()).isCloseTo(4.0, offset(1e-12));
    assertThat(f.lackOfFit().status()).isEqualTo(LackOfFit.Status.UNTESTABLE);
    assertThat(f.lackOfFit().untestableReason())
        .isEqualTo("the repeats at every delay are identical, so the pure error is exactly 0");
    assertThat(f.established()).isFalse();
    assertThat(Sensitivity.againstCount(f, 4, 0.5, 0.05).reading())
        .isEqualTo(Tost.Reading.INCONCLUSIVE);
  }

  @Test
  void badInputIsRefusedWithEveryProblemAtOnce() {
    assertThatThrownBy(
            () ->
                Sensitivity.fit(
                    List.of(
                        new DelayPoint(0, 0, 500, 1.0),
                        new DelayPoint(0, 0, 480),
                        new DelayPoint(0, 1, 470)),
                    1.0,
                    0.7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "level must be in (0, 1), got 1.0; lack_of_fit_alpha must be in (0, 0.5], got 0.7;"
                + " each (delay, repeat) must appear once, got 0 ms repeat 0 twice; weights must"
                + " be given on every point or on none, got 1 of 3; a line with an interval needs"
                + " at least 3 points at 2 distinct delays, got 3 points at 1");
    assertThatThrownBy(() -> new DelayPoint(-1, -1, 0, -2.0))
        .hasMessage(
            "added_delay_ms must be a finite number >= 0, got -1.0; repeat must be >= 0, got -1;"
                + " ceiling_per_s must be a finite number > 0, got 0.0; weight must be a finite"
                + " number > 0, got -2.0");
  }

  @Test
  void theCountCheckMatchesScipyInEachOfItsThreeReadings() {
    SensitivityFit f = fit(N_DELAYS_MS, N_CEILINGS);
    assertThat(f.established()).isTrue();
    assertThat(f.roundTripsPerEvent().value()).isCloseTo(5.956163438612349, offset(1e-9));
    assertThat(f.roundTripsPerEvent().standardError()).isCloseTo(0.09581621647723533, offset(1e-9));
    assertThat(f.lackOfFit().pValue()).isCloseTo(0.9551017558047974, offset(1e-9));

    CountCheck six = Sensitivity.againstCount(f, 6, 0.5, 0.05);
    assertThat(six.reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(six.tost().pBelow()).isCloseTo(0.0003838010414396962, offset(1e-12));
    assertThat(six.tost().pAbove()).isCloseTo(0.00010250767530216996, offset(1e-12));
    assertThat(six.tost().lower()).isCloseTo(5.782500271312452, offset(1e-9));
    assertThat(six.tost().upper()).isCloseTo(6.129826605912246, offset(1e-9));
    assertThat(six.message())
        .isEqualTo(
            "consistent with the declared 6 round trips per event: k = 5.9562, 90% interval"
                + " [5.7825, 6.1298] inside 6 +- 0.5 (TOST p = 0.0004)");

    CountCheck near = Sensitivity.againstCount(f, 6.4, 0.5, 0.05);
    assertThat(near.reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(near.tost().pBelow()).isCloseTo(0.28538101816577927, offset(1e-9));
    assertThat(near.message())
        .isEqualTo(
            "inconclusive against the declared 6.4 round trips per event: k = 5.9562, 90%"
                + " interval [5.7825, 6.1298] crosses an edge of 6.4 +- 0.5 (TOST p = 0.2854);"
                + " more repeats narrow the interval");

    CountCheck eight = Sensitivity.againstCount(f, 8, 0.5, 0.05);
    assertThat(eight.reading()).isEqualTo(Tost.Reading.NOT_CONSISTENT);
    assertThat(eight.tost().pAbove()).isCloseTo(6.630171555580249e-11, withinPercentage(1e-6));
    assertThat(eight.message())
        .startsWith("not consistent with the declared 8 round trips per event: k = 5.9562, 90%");
  }

  @Test
  void aCountIsNotCheckedAgainstALineThatDoesNotHold() {
    CountCheck c = Sensitivity.againstCount(fit(PLATEAU_DELAYS_MS, PLATEAU_CEILINGS), 5, 1, 0.05);
    assertThat(c.reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(c.tost().pBelow()).isNull();
    assertThat(c.message())
        .isEqualTo(
            "inconclusive against the declared 5 round trips per event: k = 5.3061, not tested"
                + " against 5 +- 1: k is not established: the line does not hold (lack of fit F ="
                + " 13770.9143 on 4 and 12 df, p = 7.47e-22)");
  }

  @Test
  void twoArmsMatchScipy() {
    SensitivityFit durable = fit(N_DELAYS_MS, M_CEILINGS);
    SensitivityFit relaxed = fit(N_DELAYS_MS, N_CEILINGS);
    assertThat(durable.roundTripsPerEvent().value()).isCloseTo(5.993226501418459, offset(1e-9));
    assertThat(durable.lackOfFit().pValue()).isCloseTo(0.4978543386748196, offset(1e-9));
    ArmsComparison cmp = Sensitivity.compareArms(durable, relaxed, 0.5, 0.05, 0.95);
    Tost slopes = cmp.slopeDifference();
    assertThat(slopes.estimate()).isCloseTo(0.03706306280610949, offset(1e-9));
    assertThat(slopes.standardError()).isCloseTo(0.11329494754763822, offset(1e-9));
    assertThat(slopes.df()).isCloseTo(16.87297177221005, offset(1e-7));
    assertThat(slopes.pBelow()).isCloseTo(9.650170832772233e-05, offset(1e-11));
    assertThat(slopes.pAbove()).isCloseTo(0.00039009418801511726, offset(1e-11));
    assertThat(slopes.lower()).isCloseTo(-0.16011099108872784, offset(1e-9));
    assertThat(slopes.upper()).isCloseTo(0.23423711670094682, offset(1e-9));
    assertThat(slopes.reading()).isEqualTo(Tost.Reading.CONSISTENT);
    Estimate dc = cmp.interceptDifferenceMsPerEvent();
    assertThat(dc.value()).isCloseTo(0.3016661615976366, offset(1e-9));
    assertThat(dc.standardError()).isCloseTo(0.2119554386878934, offset(1e-9));
    assertThat(dc.df()).isCloseTo(16.87297177221005, offset(1e-7));
    assertThat(dc.lower()).isCloseTo(-0.14577732081590994, offset(1e-9));
    assertThat(dc.upper()).isCloseTo(0.7491096440111831, offset(1e-9));
    assertThat(cmp.message())
        .isEqualTo(
            "slope difference a - b = 0.0371, 90% interval [-0.1601, 0.2342] inside 0 +- 0.5"
                + " (TOST p = 0.0004) round trips per event; intercept difference a - b = 0.3017"
                + " [-0.1458, 0.7491] ms per event (95%)");

    // An arm whose line does not hold gives no slope comparison.
    ArmsComparison bent =
        Sensitivity.compareArms(durable, fit(PLATEAU_DELAYS_MS, PLATEAU_CEILINGS), 0.5, 0.05, 0.95);
    assertThat(bent.slopeDifference().reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(bent.slopeDifference().untestableReason())
        .startsWith("a slope is not established, arm b: the line does not hold");
  }

  @Test
  void theLineThroughEarlierPointsPredictsTheCeilingAtAnotherDelay() {
    // 1 / C = 6 d + 2 ms exactly: 500/s at 0, 125/s at 1 ms; at 3 ms, 1000 / 20 = 50/s.
    List<DelayPoint> exact =
        List.of(new DelayPoint(0, 0, 500), new DelayPoint(1, 0, 125), new DelayPoint(1, 1, 125));
    assertThat(Sensitivity.predictedCeilingPerS(exact, 3).getAsDouble())
        .isEqualTo(50, offset(1e-9));
    // Unweighted over the repeats: 2 ms and 4 ms at d = 0 average to 3; 8 ms at 1 ms gives slope 5.
    List<DelayPoint> repeats =
        List.of(new DelayPoint(0, 0, 500), new DelayPoint(0, 1, 250), new DelayPoint(1, 0, 125));
    assertThat(Sensitivity.predictedCeilingPerS(repeats, 2).getAsDouble())
        .isEqualTo(1000.0 / 13, offset(1e-9));
  }

  @Test
  void noPredictionFromOneDelayOrFromALineThatFallsBelowZero() {
    assertThat(Sensitivity.predictedCeilingPerS(List.of(), 1)).isEmpty();
    assertThat(
            Sensitivity.predictedCeilingPerS(
                List.of(new DelayPoint(1, 0, 100), new DelayPoint(1, 1, 110)), 2))
        .isEmpty();
    // 10 ms at 0, 2 ms at 1 ms: slope -8, so the line is at -6 ms per event at 2 ms.
    assertThat(
            Sensitivity.predictedCeilingPerS(
                List.of(new DelayPoint(0, 0, 100), new DelayPoint(1, 0, 500)), 2))
        .isEmpty();
    assertThatThrownBy(() -> Sensitivity.predictedCeilingPerS(List.of(), -1))
        .hasMessageContaining("at_delay_ms");
  }
}
