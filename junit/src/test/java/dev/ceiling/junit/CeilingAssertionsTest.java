package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.RegressionResult;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class CeilingAssertionsTest {

  /** A ceiling check: what the assertion under test is given and whether it throws. */
  @FunctionalInterface
  interface Guard {
    void check(HalfRun baseline, HalfRun candidate, double marginPerS);
  }

  /** The check every limits-ingest test runs: it must reject a report that does not establish. */
  static void mustReject(Consumer<ExperimentReport> assertion, ExperimentReport report) {
    assertThatThrownBy(() -> assertion.accept(report))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to limit ingest");
  }

  static void mustRejectLowered(Guard guard, HalfRun baseline, HalfRun candidate, double m) {
    assertThatThrownBy(() -> guard.check(baseline, candidate, m))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("margin of");
  }

  @Test
  void anEstablishedReportPasses() {
    ExperimentReport r = Reports.experiment(400.0);
    assertThat(r.verdict().established()).as(r.verdict().failureLines().toString()).isTrue();
    assertThatCode(() -> CeilingAssertions.assertLimitsIngest(r)).doesNotThrowAnyException();
  }

  @Test
  void aReportThatDoesNotEstablishFailsListingEveryLine() {
    for (ExperimentReport r :
        List.of(Reports.noSeparation(), Reports.controlSkippedAndIncomplete())) {
      List<String> lines = r.verdict().failureLines();
      assertThat(lines).isNotEmpty().allMatch(l -> l.startsWith("NOT ESTABLISHED: "));
      mustReject(CeilingAssertions::assertLimitsIngest, r);
      assertThatThrownBy(() -> CeilingAssertions.assertLimitsIngest(r))
          .hasMessageStartingWith(
              "expected arm 'on' of profile reference to limit ingest, but the verdict is not"
                  + " established ("
                  + lines.size()
                  + " reason(s)):\n")
          .hasMessageEndingWith(String.join("\n", lines));
    }
  }

  @Test
  void noReportFails() {
    assertThatThrownBy(() -> CeilingAssertions.assertLimitsIngest(null))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("there is no report");
  }

  @Test
  void mutantLimitsIngestThatNeverFailsIsCaught() {
    Consumer<ExperimentReport> neverFails = r -> {};
    assertThatThrownBy(() -> mustReject(neverFails, Reports.noSeparation()))
        .isInstanceOf(AssertionError.class);
    // And one that only looks at the first failure line is caught by the every-line check.
    Consumer<ExperimentReport> firstLineOnly =
        r -> {
          if (!r.verdict().established()) {
            throw new AssertionError(
                "expected arm 'on' of profile reference to limit ingest, but: "
                    + r.verdict().failureLines().get(0));
          }
        };
    ExperimentReport r = Reports.controlSkippedAndIncomplete();
    assertThat(r.verdict().failureLines()).hasSizeGreaterThan(1);
    assertThatThrownBy(
            () ->
                assertThatThrownBy(() -> firstLineOnly.accept(r))
                    .hasMessageEndingWith(String.join("\n", r.verdict().failureLines())))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void anUnchangedCeilingPassesWithinTheMargin() {
    HalfRun base = Reports.half(Reports.ON, 400.0);
    HalfRun same = Reports.half(Reports.ON, 400.0);
    RegressionResult r = CeilingAssertions.assertCeilingNotLowered(base, same, 10.0);
    assertThat(r.nonInferior()).isTrue();
    assertThat(r.margin()).isEqualTo(10.0);
    // Worker-rate cells are those >= 400/s (busy): 400, 500, 600 x 3 repeats.
    assertThat(r.baselineN()).isEqualTo(9);
    // A small real loss (3 events/s) inside a 10 events/s margin is still fine.
    assertThat(
            CeilingAssertions.assertCeilingNotLowered(base, Reports.half(Reports.ON, 397.0), 10.0)
                .nonInferior())
        .isTrue();
    // The report overload compares the treatment halves.
    assertThat(
            CeilingAssertions.assertCeilingNotLowered(
                    Reports.experiment(400.0), Reports.experiment(400.0), 10.0)
                .nonInferior())
        .isTrue();
  }

  @Test
  void aLoweredCeilingFailsStatingTheMargin() {
    // Baseline: busy cells at 400/s complete min(400, 400 + wobble) = 398.5, 400, 400 and at
    // 500/600 the full 400 + wobble (mean 400): (1198.5 + 1200 + 1200) / 9 = 399.83.
    HalfRun base = Reports.half(Reports.ON, 400.0);
    HalfRun lowered = Reports.half(Reports.ON, 380.0);
    mustRejectLowered(CeilingAssertions::assertCeilingNotLowered, base, lowered, 10.0);
    assertThatThrownBy(() -> CeilingAssertions.assertCeilingNotLowered(base, lowered, 10.0))
        .hasMessageStartingWith(
            "expected worker_rate_per_s not to drop by more than the margin of 10.00 events/s"
                + " (one-sided non-inferiority test at level 0.9500), but: baseline mean 399.8"
                + " over 9 cell(s), candidate mean 380.0 over 9 cell(s); not shown non-inferior");
  }

  @Test
  void aLossInsideNoMarginIsNotShownNonInferiorEvenThoughIntervalsWouldOverlap() {
    // 3 events/s lower with wobble of +-1.5: 95% intervals overlap, yet with margin 0 the
    // one-sided test cannot show the candidate is no worse.
    HalfRun base = Reports.half(Reports.ON, 400.0);
    mustRejectLowered(
        CeilingAssertions::assertCeilingNotLowered, base, Reports.half(Reports.ON, 399.0), 0.0);
  }

  @Test
  void mutantGuardThatNeverFailsIsCaught() {
    Guard neverFails = (b, c, m) -> {};
    assertThatThrownBy(
            () ->
                mustRejectLowered(
                    neverFails,
                    Reports.half(Reports.ON, 400.0),
                    Reports.half(Reports.ON, 380.0),
                    10.0))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void acceptedOverOfferedGuardComparesOneRate() {
    HalfRun base = Reports.half(Reports.ON, 400.0);
    RegressionResult ok =
        CeilingAssertions.assertAcceptedNotLowered(
            base, Reports.half(Reports.ON, 400.0), 600.0, 0.02);
    assertThat(ok.metric()).isEqualTo("accepted_over_offered@600/s");
    Guard at600 = (b, c, m) -> CeilingAssertions.assertAcceptedNotLowered(b, c, 600.0, m);
    mustRejectLowered(at600, base, Reports.half(Reports.ON, 350.0), 0.02);
    Guard neverFails = (b, c, m) -> {};
    assertThatThrownBy(
            () -> mustRejectLowered(neverFails, base, Reports.half(Reports.ON, 350.0), 0.02))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void badMarginsAreRejectedNotAsserted() {
    HalfRun base = Reports.half(Reports.ON, 400.0);
    assertThatThrownBy(() -> CeilingAssertions.assertCeilingNotLowered(base, base, -1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("margin must be a finite number >= 0, got -1.0");
  }
}
