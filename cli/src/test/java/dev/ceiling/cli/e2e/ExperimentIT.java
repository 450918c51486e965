package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.command.ExperimentCommand;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.WorkerRate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole experiment against the real reference relay (child JVMs, H2 over loopback), with short
 * cells. Each test is a known answer or a contract failure that must show.
 */
class ExperimentIT {
  @TempDir Path dir;

  /**
   * Windows of 3 s in the known-answer tests: a metrics scrape may take 10% of the window
   * (SLOW_SCRAPE), and at 1.5 s that was 150 ms, which a busy CI machine's scrapes exceeded in 5 of
   * 12 cells (load average 6). The scrape rule stays Ceiling's; the windows grew.
   *
   * <p>Short cells. The send-lag bound is 250 ms (a tenth of a window): these tests check the
   * verdict on real data, and GeneratorIT checks the generator's self-check; a shared CI machine's
   * scheduler must not decide them. At 25 ms, a full build beside the test (load average 13 on two
   * cores) flagged 7 of 12 cells at 100-200/s generator-bound and the known answer never ran. A
   * late send moves an event by at most the bound; the warm-up runs on the same unbroken schedule,
   * so lateness shifts as many answers into the window as out of it.
   */
  private static SweepOptions quick(Path dir) {
    return SweepOptions.defaults(dir.resolve("journal.jsonl"))
        .withWarmup(Duration.ofMillis(1500))
        .withGrace(Duration.ofSeconds(1))
        .withSendLagBound(Duration.ofMillis(250));
  }

  /**
   * Known answer: with an injected exchange delay d, the worker-rate interval lies within 15% of
   * the range 1 / (6 (c + d)) that the relay's own calibration loops predict (not the sweep): c
   * timed with the delay between exchanges (cold: the database's thread asleep between them) and
   * back to back (hot). A worker in a sweep pays a cost between the two, set by what else keeps the
   * machine's CPUs awake; see docs/REFERENCE_RELAY.md.
   */
  @Test
  void workerRateMatchesTheIndependentPredictionAndTheArmsSeparate() throws Exception {
    // A delay large next to the exchange cost, so the calibration's cold-start error in c moves
    // the prediction by a few percent, not by the whole tolerance.
    double delayMs = 4.0;
    ExperimentResult r =
        Experiment.builder()
            .profile(Relays.reference())
            .relayOverrides(
                Relays.freePorts(
                    Map.of(
                        "exchange_delay_ms",
                        Double.toString(delayMs),
                        "queue_capacity",
                        "15",
                        "calibration_runs",
                        "400")))
            // Enough events per window that saturated counts are not identical integers in every
            // repeat: two exactly constant arms are degenerate and never separate (by design).
            .ratesFromCalibration(0.5, 2.0)
            .duration(Duration.ofSeconds(3))
            .repeats(3)
            .sweepOptions(quick(dir))
            .outDir(dir)
            .alsoRender("report.html", HtmlReport::render)
            .installShutdownHook(false)
            .run();
    assertThat(r.problems()).isEmpty();
    ExperimentReport report = r.report();
    Map<String, String> info = report.treatment().rig().relayInfo();
    double coldCostMs = Double.parseDouble(info.get("exchange_cost_ms"));
    double hotCostMs = Double.parseDouble(info.get("exchange_cost_hot_ms"));
    // Usually the cold end is the lower; on a quiet, warm machine it was sometimes the higher.
    double cold = 1000.0 / (6 * (coldCostMs + delayMs));
    double hot = 1000.0 / (6 * (hotCostMs + delayMs));
    double predictedLow = Math.min(cold, hot);
    double predictedHigh = Math.max(cold, hot);
    WorkerRate w = report.verdict().workerRate();
    assertThat(w).as("worker-rate estimate; verdict: %s", report.verdict().failures()).isNotNull();
    double maxLoad = maxLoadPerCpu(report);
    String figures =
        String.format(
            java.util.Locale.ROOT,
            "calibration predicted %.1f-%.1f/s; worker measured %.1f/s [%s, %s];"
                + " highest load per CPU before a cell %.2f",
            predictedLow,
            predictedHigh,
            w.estimatePerS(),
            w.lowerPerS(),
            w.upperPerS(),
            maxLoad);
    System.out.println(figures);
    if (maxLoad > 1.0) {
      // A sleep-based delay overshoots on an oversubscribed machine: the worker runs slower than
      // any calibration predicts. Recorded, not judged (issue 13 item 10); the verdict still is.
      System.out.println("NOT CHECKED (machine busy): " + figures);
    } else {
      assertThat(w.lowerPerS()).as(figures).isGreaterThanOrEqualTo(predictedLow * 0.85);
      assertThat(w.upperPerS()).as(figures).isLessThanOrEqualTo(predictedHigh * 1.15);
    }
    assertThat(report.verdict().established())
        .as(
            "established; failures %s; excluded %s",
            report.verdict().failureLines(), report.verdict().excluded())
        .isTrue();
    assertThat(r.outcome()).isEqualTo(Outcome.ESTABLISHED);
    // What was measured is on disk and reads back to the same verdict.
    ExperimentReport again = Json.read(r.reportJson(), ExperimentReport.class);
    assertThat(again.recompute()).isEqualTo(report.verdict());
    assertThat(r.extraFiles()).containsExactly(dir.resolve("report.html"));
    assertThat(Files.readString(r.extraFiles().get(0))).contains("<svg");
  }

  /**
   * Known answer with the defaults of {@code ceiling experiment} (issue 13 item 10): the worker
   * rate the sweep measures lies within 15% of the warm calibration's predicted range (cold to hot,
   * as in the test above), and the automatic grid puts at least two rates above that measured
   * ceiling, so the knee is bracketed. On a busy machine the figure is not stable (a wide
   * worker-rate interval, or load above one runnable task per CPU); then both figures are printed
   * and the assertion is skipped with that reason rather than decided by the machine's load.
   */
  @Test
  void theWarmCalibrationPredictsTheMeasuredWorkerRateAndTheGridBracketsIt() throws Exception {
    ExperimentResult r =
        Experiment.builder()
            .profile(Relays.reference())
            .relayOverrides(Relays.freePorts(ExperimentCommand.REFERENCE_DEFAULTS))
            .ratesFromCalibration(ExperimentCommand.autoMultiples())
            .duration(Duration.ofSeconds(3))
            .repeats(2)
            .sweepOptions(quick(dir))
            .outDir(dir)
            .installShutdownHook(false)
            .run();
    ExperimentReport report = r.report();
    assertThat(report).as("problems %s", r.problems()).isNotNull();
    double predicted =
        Double.parseDouble(
            report.treatment().rig().relayInfo().get(Experiment.PREDICTED_CEILING_KEY));
    double predictedHot =
        Double.parseDouble(
            report.treatment().rig().relayInfo().get("predicted_worker_ceiling_hot_per_s"));
    WorkerRate w = report.verdict().workerRate();
    assertThat(w).as("worker-rate estimate; verdict: %s", report.verdict().failures()).isNotNull();
    double maxLoad = maxLoadPerCpu(report);
    boolean stable =
        w.lowerPerS() != null
            && (w.upperPerS() - w.lowerPerS()) / 2 <= 0.075 * w.estimatePerS()
            && !(maxLoad > 1.0);
    String figures =
        String.format(
            java.util.Locale.ROOT,
            "warm calibration predicted %.1f/s cold, %.1f/s hot; worker measured %.1f/s [%s, %s]"
                + " (predicted/measured %.3f); grid %s; highest load per CPU before a cell %.2f",
            predicted,
            predictedHot,
            w.estimatePerS(),
            w.lowerPerS(),
            w.upperPerS(),
            predicted / w.estimatePerS(),
            report.identity().ratesPerS(),
            maxLoad);
    System.out.println(figures);
    Assumptions.assumeTrue(stable, "the machine gave no stable figure; recorded only: " + figures);
    assertThat(w.estimatePerS())
        .as(figures)
        .isBetween(
            Math.min(predicted, predictedHot) * 0.85, Math.max(predicted, predictedHot) * 1.15);
    assertThat(report.identity().ratesPerS().stream().filter(rate -> rate > w.upperPerS()))
        .as(figures)
        .hasSizeGreaterThanOrEqualTo(2);
  }

  /** The highest 1-minute load per CPU recorded before any treatment cell; NaN when none was. */
  private static double maxLoadPerCpu(ExperimentReport report) {
    return report.treatment().cells().stream()
        .map(c -> c.loadPerCpuBefore())
        .filter(java.util.Objects::nonNull)
        .mapToDouble(Double::doubleValue)
        .max()
        .orElse(Double.NaN);
  }

  /** Negative control: an audit cost negligible next to the grid does not separate. */
  @Test
  void negligibleAuditCostIsNotShownToLimitIngest() throws Exception {
    ExperimentResult r =
        Experiment.builder()
            .profile(Relays.reference())
            .relayOverrides(Relays.freePorts(Map.of("exchange_delay_ms", "0")))
            .rates(100, 200)
            .duration(Duration.ofSeconds(3))
            .repeats(3)
            .sweepOptions(quick(dir).withWarmup(Duration.ofMillis(500)))
            .outDir(dir)
            .installShutdownHook(false)
            .run();
    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(r.report().verdict().failureLines())
        .anySatisfy(l -> assertThat(l).startsWith("NOT ESTABLISHED: not shown to limit ingest"));
  }

  /**
   * Contamination: with the limiter at its defaults the rejection counter moves, those cells are
   * excluded, and the run does not pass on them.
   */
  @Test
  void defaultLimitsContaminateAndAreExcluded() throws Exception {
    ExperimentResult r =
        Experiment.builder()
            .profile(Relays.referenceWithDefaultLimits(dir))
            .relayOverrides(Relays.freePorts(Map.of("exchange_delay_ms", "0")))
            .rates(300)
            .duration(Duration.ofSeconds(2))
            .repeats(2)
            .sweepOptions(quick(dir).withWarmup(Duration.ofMillis(500)))
            .outDir(dir)
            .installShutdownHook(false)
            .run();
    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(r.report().verdict().established()).isFalse();
    assertThat(r.report().verdict().excluded())
        .isNotEmpty()
        // Each cell is excluded as contaminated by the limiter: by the relay's quota counter, or
        // by the NOTICEs the generator saw (on a loaded machine a late scrape can leave one
        // cell's counter delta at 0 while the generator still counts every NOTICE).
        .allSatisfy(
            e ->
                assertThat(e.reasons())
                    .anySatisfy(
                        p ->
                            assertThat(p.kind())
                                .isIn(ProblemKind.ADMISSION_QUOTA, ProblemKind.NOTICES)));
    // And the counter did move in the arm as a whole: the mapping reads the real limiter.
    HalfRun treatment = r.report().treatment();
    assertThat(
            treatment.cells().stream()
                .mapToDouble(
                    c -> c.delta(dev.ceiling.core.model.MetricRole.ADMISSION_REJECTIONS_QUOTA))
                .sum())
        .isGreaterThan(0.0);
  }
}
