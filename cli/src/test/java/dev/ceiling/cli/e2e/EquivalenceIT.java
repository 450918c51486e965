package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.report.Summary;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentResult;
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
 * and the run says "costs less than 0.05 of accepted/offered" there. Its partner, far above the
 * ceiling, runs in {@link ExperimentIT}, whose run declares the same margin: there the treatment
 * loses about half its offer, and no rate may read equivalent. (One run with both would hold 12 or
 * more cells, past a minute on a busy machine.)
 *
 * <p>The plan, fixed before any cell. At 0.3 x the predicted ceiling (40 to 70/s at the profile's
 * 0.5 ms delay, lower when a loaded machine's calibration runs cold: 27/s in one run) each 6 s
 * window offers 160 to 420 events, every one accepted in both arms. The count inside the window may
 * still move by a few events at its edges, as OKs that a loaded test JVM reads late cross them: a
 * shift of the same time at either edge, so its share of the window's count falls as the window
 * grows. With 3 s windows the treatment read 1.007 +- 0.02 in one run (TOST p 0.0035), and 1.019
 * [0.957, 1.080] from four cells in another at a load of 8 (27/s, 81 events per window), whose
 * interval crossed -0.05: INCONCLUSIVE. Where the cells are exactly constant, the counts' binomial
 * floor sets the interval (40/s, 120 events per cell, three and two cells: +-0.021, TOST p 0.011).
 * Five repeats, so that two cells per arm may be excluded (a scrape slower than 10% of the window
 * on a busy machine was the exclusion seen: with three, a run at a load of 9 kept one control cell,
 * and the rate had no comparison) and the rate keeps its evidence. Every figure is printed, and on
 * failure in the message.
 */
class EquivalenceIT {
  private static final double DELTA = 0.05;

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
            .repeats(5)
            .equivalenceMargin(DELTA)
            // quickSweep's own 1.5 s warm-up: at 0.5 s the control relay's first scrape of the
            // window took 0.30 to 0.45 s in three of four cells (load 8), past 10% of the window.
            .sweepOptions(Relays.quickSweep(dir))
            .outDir(dir)
            .installShutdownHook(false)
            .run();
    ExperimentReport report = r.report();
    assertThat(report).as("a report; problems %s", r.problems()).isNotNull();
    String figures = Summary.text(report) + "problems: " + r.problems();
    System.out.println(figures);
    System.out.printf(Locale.ROOT, "EquivalenceIT: %.1f s%n", (System.nanoTime() - started) / 1e9);
    EquivalenceReport e = report.verdict().equivalence();
    assertThat(e).as(figures).isNotNull();
    assertThat(report.identity().equivalenceMargin()).isEqualTo(DELTA);
    assertThat(e.rates().get(0).reading())
        .as("0.3 x the ceiling reads equivalent within 0.05\n%s", figures)
        .isEqualTo(RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA);
    assertThat(e.summary())
        .as(figures)
        .startsWith("'on' costs less than 0.05 of accepted/offered against 'off' at ");
    // Not shown to limit, and that is a different statement: the verdict stays NOT ESTABLISHED.
    assertThat(report.verdict().established()).as(figures).isFalse();
  }
}
