package dev.ceiling.cli.e2e;

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
 * The whole experiment against the real reference relay, with short cells: a result that must not
 * pass. With the limiter at its defaults every cell is contaminated and excluded. The experiment's
 * negative control (an audit path that costs nothing measurable is not shown to limit ingest) is
 * asserted on {@link EquivalenceIT}'s run, which is that case already.
 *
 * <p>It needs nothing of the CLI; it runs in this module's two test JVMs rather than the e2e
 * module's one because that lane (junit, e2e, the consumer example) is the longer by about its
 * length (docs/PERFORMANCE.md, "The test suite").
 */
class ExperimentControlsIT {
  @TempDir Path dir;

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
