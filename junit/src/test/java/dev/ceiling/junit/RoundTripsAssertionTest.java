package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.experiment.DelaySweepPlan;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.verdict.CountCheck;
import dev.ceiling.verdict.DelayPoint;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.SensitivityFit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CeilingAssertions#assertRoundTripsPerEvent} on sweeps fitted by the verdict's own {@link
 * Sensitivity} from repeats of 1 / C = 2 + k d ms per event: it passes only for a complete sweep
 * whose line holds and whose k is consistent with the count its plan declared.
 */
class RoundTripsAssertionTest {
  static final List<Double> DELAYS = List.of(0.0, 1.0, 2.0, 3.0);

  static DelaySweepPlan plan(Double declared) {
    return DelaySweepPlan.builder()
        .link("db")
        .delaysMs(DELAYS)
        .repeats(3)
        .offeredPerS(300)
        .offerRule("given")
        .perPointOffer(null)
        .durationS(3)
        .seed(1)
        .level(0.95)
        .lackOfFitAlpha(0.05)
        .expectedRoundTrips(declared)
        .margin(0.5)
        .build();
  }

  /** Repeats of 1 / C = 2 + k d ms per event, or a plateau below 1.5 ms, with a small scatter. */
  static List<DelayPoint> line(double k, boolean plateau) {
    List<DelayPoint> out = new ArrayList<>();
    for (double d : DELAYS) {
      for (int r = 0; r < 3; r++) {
        double ms = (plateau && d < 1.5 ? 11 : 2 + k * d) + 0.01 * (r - 1);
        out.add(new DelayPoint(d, r, 1000 / ms));
      }
    }
    return out;
  }

  /** A report as the sweep writes it, from {@code points}, declaring {@code declared}. */
  static DelaySweepReport sweep(List<DelayPoint> points, Double declared, boolean complete) {
    SensitivityFit fit = Sensitivity.fit(points, 0.95, 0.05);
    CountCheck count = declared == null ? null : Sensitivity.againstCount(fit, declared, 0.5, 0.05);
    boolean established =
        complete
            && fit.established()
            && (count == null || count.reading() == dev.ceiling.verdict.Tost.Reading.CONSISTENT);
    return new DelaySweepReport(
        DelaySweepReport.SCHEMA,
        "reference-linked",
        "on",
        null,
        plan(declared),
        new MeasurementSettings(1, 2, 10, 8),
        Instant.EPOCH,
        Instant.EPOCH,
        complete,
        complete ? null : "stopped after 6 of 12 cells",
        List.of(),
        List.of(),
        List.of(),
        fit,
        null,
        count,
        6.0,
        established,
        "the sweep's answer");
  }

  @Test
  void aCompleteSweepWhoseLineHoldsAtTheDeclaredCountPasses() {
    assertThatCode(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(6, false), 6.0, true), 6))
        .doesNotThrowAnyException();
  }

  /** The partners: each way the same assertion must fail, with the reason named. */
  @Test
  void anotherCountAPlateauAPartialSweepOrAnUndeclaredCountFail() {
    assertThatThrownBy(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(3, false), 6.0, true), 6))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the sweep's answer")
        .hasMessageContaining("6");
    assertThatThrownBy(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(6, true), 6.0, true), 6))
        .hasMessageContaining("the line does not hold");
    assertThatThrownBy(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(6, false), 6.0, false), 6))
        .hasMessageContaining("incomplete: stopped after 6 of 12 cells");
    assertThatThrownBy(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(6, false), null, true), 6))
        .hasMessageContaining("declared no count");
    // A count chosen after the data is refused even where k would match it.
    assertThatThrownBy(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(3, false), 6.0, true), 3))
        .hasMessageContaining("the plan declared 6, not 3");
    assertThatThrownBy(() -> CeilingAssertions.assertRoundTripsPerEvent(null, 6))
        .hasMessageContaining("no report");
  }

  @Test
  void everyReasonIsListedAtOnce() {
    assertThatThrownBy(
            () -> CeilingAssertions.assertRoundTripsPerEvent(sweep(line(6, true), null, false), 6))
        .hasMessageContaining("declared no count")
        .hasMessageContaining("incomplete")
        .hasMessageContaining("the line does not hold");
  }
}
