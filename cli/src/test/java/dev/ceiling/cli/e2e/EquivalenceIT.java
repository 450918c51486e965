package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.verdict.EquivalenceReport;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.RateEquivalence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Known answer for the A/B's equivalence question on the real reference relay (child JVMs, H2 over
 * loopback), short cells: far below the worker's ceiling the audit path costs nothing measurable,
 * and the run says "costs less than 0.10 of accepted/offered" there. Its partner, far above the
 * ceiling, runs in {@link ExperimentIT}, whose run declares the same margin: there the treatment
 * loses about half its offer, and no rate may read equivalent. (One run with both would hold 12 or
 * more cells, past a minute on a busy machine.) The same run is the experiment's negative control:
 * an audit path that costs nothing measurable is not shown to limit ingest, the verdict says so,
 * and the result is NOT ESTABLISHED.
 *
 * <p>The plan, fixed before any cell. At 0.3 x the predicted ceiling (40 to 70/s at the profile's
 * 0.5 ms delay, lower when a loaded machine's calibration runs cold: 27/s in one run) each 6 s
 * window offers 160 to 420 events, every one accepted in both arms. On a machine that is merely
 * busy each cell counts its offer to within one event (all 44 cells of four runs beside two busy
 * loops, load 5 to 8). A cell moves only when the machine stalls the relay or the test JVM at an
 * edge of its window: OKs then cross that edge, and a stall of s seconds moves the cell by s / 6.
 * In one run at a load of 14 a single treatment cell read about 1.085 (a 0.5 s stall) while another
 * was excluded: 1.022 [0.955, 1.089] from four cells, TOST interval [-0.068, +0.030], INCONCLUSIVE
 * against 0.05. One outlier x among n otherwise exact cells puts the TOST bound at x (1 + t) / n (t
 * the one-sided 95% quantile), so a margin of 0.05 fails at a single 0.5 s stall. With 0.10 and six
 * repeats the reading stays equivalent with one 1 s stall among six cells (bound 0.084), one 0.7 s
 * stall among the four cells left when two are excluded (0.098), or two 0.5 s stalls among six
 * (0.063). Six repeats also leave each arm its evidence when a busy machine excludes cells (slow
 * scrapes and send lag were the exclusions seen). Every cell's figures are printed, and on failure
 * in the message.
 */
class EquivalenceIT {
  private static final double DELTA = 0.10;

  @TempDir Path dir;

  @Test
  void farBelowTheCeilingTheAuditPathCostsLessThanDelta() throws Exception {
    long started = System.nanoTime();
    ExperimentResult r =
        Experiment.builder()
            .profile(Relays.reference())
            // The calibration only places the rate, and 0.3 x needs no precision: half its runs.
            .relayOverrides(Relays.freePorts(Map.of("calibration_runs", "100")))
            .ratesFromCalibration(0.3)
            .duration(Duration.ofSeconds(6))
            .repeats(6)
            .equivalenceMargin(DELTA)
            // quickSweep's own 1.5 s warm-up: at 0.5 s the control relay's first scrape of the
            // window took 0.30 to 0.45 s in three of four cells (load 8), past 10% of the window.
            .sweepOptions(Relays.quickSweep(dir))
            .outDir(dir)
            .installShutdownHook(false)
            .run();
    ExperimentReport report = r.report();
    assertThat(report).as("a report; problems %s", r.problems()).isNotNull();
    String figures =
        Summary.text(report)
            + cells(report.treatment())
            + cells(report.control())
            + "problems: "
            + r.problems();
    System.out.println(figures);
    System.out.printf(Locale.ROOT, "EquivalenceIT: %.1f s%n", (System.nanoTime() - started) / 1e9);
    EquivalenceReport e = report.verdict().equivalence();
    assertThat(e).as(figures).isNotNull();
    assertThat(report.identity().equivalenceMargin()).isEqualTo(DELTA);
    assertThat(e.rates().get(0).reading())
        .as("0.3 x the ceiling reads equivalent within 0.10\n%s", figures)
        .isEqualTo(RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA);
    assertThat(e.summary())
        .as(figures)
        .startsWith("'on' costs less than 0.1 of accepted/offered against 'off' at ");
    // Not shown to limit, and that is a different statement: the verdict stays NOT ESTABLISHED.
    // This is also the experiment's negative control (ExperimentIT's partner): an audit path that
    // costs nothing measurable at the rate must not be shown to limit ingest.
    assertThat(report.verdict().established()).as(figures).isFalse();
    assertThat(r.outcome()).as(figures).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(report.verdict().failureLines())
        .as(figures)
        .anySatisfy(l -> assertThat(l).startsWith("NOT ESTABLISHED: not shown to limit ingest"));
  }

  /** One line per cell: its in-window count against its offer, and what can move its edges. */
  private static String cells(HalfRun half) {
    StringBuilder lines = new StringBuilder();
    for (Cell c : half.cells()) {
      lines.append(
          String.format(
              Locale.ROOT,
              "cell %s seq %d: accepted/offered %.4f, %d OKs in the window for %.0f offered"
                  + " (attempted %d, warm-up slots %s), send lag p99 %s ms, scrapes %s s and %s s%n",
              c.arm(),
              c.sequence(),
              c.acceptedOverOffered(),
              c.acceptedInWindow(),
              c.offeredEvents(),
              c.attempted(),
              c.warmupSlotsSent(),
              c.sendLag().p99Ms(),
              c.scrapeStartS(),
              c.scrapeEndS()));
    }
    return lines.toString();
  }
}
