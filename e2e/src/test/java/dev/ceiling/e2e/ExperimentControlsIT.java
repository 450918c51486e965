package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.HalfRun;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.verdict.ProblemKind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole experiment against the real reference relay, with short cells: the results that must
 * not pass. A negligible audit cost is not shown to limit ingest, and the limiter at its defaults
 * contaminates every cell, which is then excluded. Apart from {@link ExperimentIT} so the two
 * classes run in the module's two test JVMs side by side.
 */
class ExperimentControlsIT {
  @TempDir Path dir;

  /** Negative control: an audit cost negligible next to the grid does not separate. */
  @Test
  void negligibleAuditCostIsNotShownToLimitIngest() throws Exception {
    ExperimentResult r =
        Experiment.builder()
            .profile(Relays.reference())
            .relayOverrides(Relays.freePorts(Relays.UNDELAYED))
            .rates(100, 200)
            // 5 s, not 3: a cell whose scrapes take more than a tenth of its window is excluded
            // (SLOW_SCRAPE), and at a load of 8-12 slow scrapes excluded 7 of 12 cells of 3 s,
            // leaving no rate to judge. A longer window tolerates proportionally slower scrapes.
            .duration(Duration.ofSeconds(5))
            .repeats(3)
            .sweepOptions(Relays.quickSweep(dir).withWarmup(Duration.ofMillis(500)))
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
            .relayOverrides(Relays.freePorts(Relays.UNDELAYED))
            .rates(300)
            .duration(Duration.ofSeconds(2))
            .repeats(2)
            .sweepOptions(Relays.quickSweep(dir).withWarmup(Duration.ofMillis(500)))
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
