package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.Tost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two slopes per link from synthetic cells worked by hand: each planned cell of {@link
 * DelaySweepFromTheClientTest}'s plan (0 to 3 ms x 3 repeats) gets a latency cell at 12/s whose 120
 * OK latencies lie around 4 + 2 d ms (two round trips on the OK path), and its saturating cell
 * either keeps its ceiling at every delay (a pooled relay: the link does not bound it) or follows
 * 1000 / C = 5 + 3 d (the link bounds it). The link makes 2 turns per OK-true answer and carries
 * 300 bytes out and 900 back per answer in the latency cells.
 */
class LatencySlopeAnalysisTest {
  private static final double LATENCY_OFFER = 12;
  private static final DelaySweepPlan PLAN =
      DelaySweepFromTheClientTest.PLAN.withLatencyOffer(LATENCY_OFFER);

  @TempDir Path dir;

  /** A latency cell: 120 OK answers in 10 s, none outstanding, at {@code latencyMs} ± 0.2. */
  static Cell latencyCell(DelaySweepPlan.Cell p, double latencyMs) {
    Histogram h = LatencySummary.newHistogram();
    for (int i = 0; i < 120; i++) {
      h.recordValue(Math.round((latencyMs + 0.2 * ((i % 5) - 2) / 2.0) * 1000));
    }
    return HalfRuns.cell(HalfRuns.ON, LATENCY_OFFER, p.repeat(), p.sequence(), 10, 1.0)
        .counterDeltas(java.util.Map.of())
        .warmupSlotsSent(24L)
        .acceptedInWindow(120)
        .windowCounts(60, 60, 120, 0, 0, 0, 0)
        .scheduled(LatencySummary.of(h))
        .build();
  }

  private static DelaySweepReport sweep(
      ToDoubleFunction<DelaySweepPlan.Cell> ceiling, ToDoubleFunction<DelaySweepPlan.Cell> ms) {
    List<DelaySweepAnalysis.Measured> measured = new ArrayList<>();
    for (DelaySweepPlan.Cell p : PLAN.cells()) {
      measured.add(
          new DelaySweepAnalysis.Measured(
              p,
              DelaySweepFromTheClientTest.saturated(p, ceiling.applyAsDouble(p)),
              new LinkCounters(1, 0, 7200, 0, 0, 0, 0),
              null,
              new DelaySweepAnalysis.LatencyMeasured(
                  latencyCell(p, ms.applyAsDouble(p)),
                  new LinkCounters(0, 0, 2 * 144, 300 * 144, 900 * 144, 0, 0))));
    }
    return DelaySweepAnalysis.report(
        "nostream",
        DelaySweepFromTheClientTest.metricsLess(),
        DelaySweepFromTheClientTest.identity(),
        PLAN.withLatencyOffer(LATENCY_OFFER),
        measured,
        DelaySweepAnswerTest.DONE,
        DelaySweepFromTheClientTest.CFG);
  }

  private static double twoRoundTrips(DelaySweepPlan.Cell p) {
    return 4 + 2 * p.addedDelayMs() + 0.05 * (p.repeat() - 1);
  }

  private static double flat(DelaySweepPlan.Cell p) {
    return 200 * (1 + 0.003 * (p.repeat() - 1));
  }

  private static double bound(DelaySweepPlan.Cell p) {
    return DelaySweepFromTheClientTest.ceiling(p);
  }

  @Test
  void aPooledLinkShowsTwoRoundTripsInTheLatencyAndNoneInTheCeiling() throws Exception {
    DelaySweepReport r =
        sweep(LatencySlopeAnalysisTest::flat, LatencySlopeAnalysisTest::twoRoundTrips);
    LatencySlope l = r.latencySlope();
    assertThat(l.fit().established()).as(l.fit().message()).isTrue();
    assertThat(l.fit().roundTripsPerEvent().value())
        .isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.05));
    assertThat(l.wireTurnsPerOkTrue()).isEqualTo(2.0);
    assertThat(l.bytesToTargetPerOkTrue()).isEqualTo(300.0);
    assertThat(l.bytesToRelayPerOkTrue()).isEqualTo(900.0);
    assertThat(l.bytesToRelayPerOkTrueFirstHalf()).isEqualTo(900.0);
    assertThat(l.ceilingAgainstZero().reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(r.answer())
        .startsWith("link 'db': 2.0 [")
        .contains("sequential round trips on the OK path per event (wire 2.00)")
        .endsWith("the ceiling does not move with its delay up to 3 ms: not what bounds it");
    // No count declared: the latency line holding establishes the sweep.
    assertThat(r.established()).isTrue();
    assertThat(l.points().get(0).meanMedianOkLatencyMs())
        .isCloseTo(4.0, org.assertj.core.data.Offset.offset(0.1));
    // The file reads back with both slopes, and a latency cell offered otherwise is refused.
    Path f = dir.resolve("sensitivity.json");
    Json.write(f, r);
    DelaySweepReport back = DelaySweepFile.read(f);
    assertThat(back.latencySlope()).isEqualTo(r.latencySlope());
    Files.writeString(
        f,
        Files.readString(f)
            .replace("\"latency_offered_per_s\" : 12.0", "\"latency_offered_per_s\" : 11.0"));
    assertThatThrownBy(() -> DelaySweepFile.read(f))
        .hasMessageContaining("latency was offered 12.0");
  }

  @Test
  void aLinkThatBoundsTheCeilingShowsInBothSlopes() {
    DelaySweepReport r =
        sweep(LatencySlopeAnalysisTest::bound, LatencySlopeAnalysisTest::twoRoundTrips);
    assertThat(r.latencySlope().ceilingAgainstZero().reading())
        .isEqualTo(Tost.Reading.NOT_CONSISTENT);
    assertThat(r.answer())
        .contains("the ceiling moves with its delay (3.0 [")
        .endsWith("the link bounds it");
  }

  @Test
  void aDeclaredCountIsTestedOnTheLatencySlope() {
    DelaySweepPlan declared3 =
        PLAN.toBuilder()
            .expectedRoundTrips(3.0)
            .margin(0.5)
            .latencyOfferedPerS(LATENCY_OFFER)
            .ceilingRamp(null)
            .build();
    DelaySweepReport two =
        sweep(LatencySlopeAnalysisTest::flat, LatencySlopeAnalysisTest::twoRoundTrips);
    assertThat(
            LatencySlope.of(declared3, two.cells(), two.fit(), two.fitProblem())
                .countCheck()
                .reading())
        .isEqualTo(Tost.Reading.NOT_CONSISTENT);
    DelaySweepPlan declared2 = declared3.withLatencyOffer(LATENCY_OFFER);
    LatencySlope ok =
        LatencySlope.of(
            declared2.toBuilder()
                .expectedRoundTrips(2.0)
                .margin(0.5)
                .latencyOfferedPerS(LATENCY_OFFER)
                .ceilingRamp(null)
                .build(),
            two.cells(),
            two.fit(),
            two.fitProblem());
    assertThat(ok.countCheck().reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(ok.established()).isTrue();
    // A latency cell with a refusal is no point, and says why.
    Cell refused =
        latencyCell(PLAN.cells().get(0), 4).toBuilder().accepted(119).rejected(1).build();
    LatencyCell c =
        LatencyCell.of(
            refused, new LinkCounters(0, 0, 0, 0, 0, 0, 0), DelaySweepFromTheClientTest.CFG);
    assertThat(c.used()).isFalse();
    assertThat(c.notUsed()).startsWith("refused answers in the window");
    assertThat(c.okLatencyMedianMs()).isNull();
  }

  @Test
  void aLatencyOfferAtOrAboveTheFirstOfferIsRefused() {
    assertThatThrownBy(() -> PLAN.withLatencyOffer(300.0))
        .hasMessageContaining("latency_offered_per_s must be below the first offer");
  }
}
