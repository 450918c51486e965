package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellProblems;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drain that runs out of time excludes the next cell: the real reference relay with a slow audit
 * worker (20 ms per database exchange, six exchanges per event: about 8 entries/s) is offered
 * 100/s, so its queue holds far more than a 1 s drain can clear, and the second cell starts on the
 * first one's backlog. The first cell, after an empty queue, is the partner: it is not excluded.
 */
class DrainTimeoutIT {
  @TempDir Path dir;

  @Test
  void theCellAfterADrainThatTimedOutIsExcludedNamingTheQueueDepth() throws Exception {
    UpOptions up =
        UpOptions.of(RelayProfile.builtIn("reference"), "on", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(
                Map.of(
                    "port",
                    Integer.toString(ScaleOutIT.freePort()),
                    "db_port",
                    Integer.toString(ScaleOutIT.freePort()),
                    "exchange_delay_ms",
                    "20",
                    "calibration_runs",
                    "10"));
    try (RigHandle rig = Rig.up(up)) {
      RigDescriptor d = rig.descriptor();
      SweepOptions o =
          SweepOptions.defaults(dir.resolve("journal.jsonl"))
              .withWarmup(Duration.ofMillis(200))
              .withDrainTimeout(Duration.ofSeconds(1));
      var identity =
          Identities.of(
              RelayProfile.builtIn("reference"), d, List.of(100.0), 1.0, 2, null, o.measurement());
      ConcurrentLinkedQueue<String> warnings = new ConcurrentLinkedQueue<>();
      SweepRunner runner =
          new SweepRunner(
              new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(5), 16 * 1024 * 1024),
              new SweepProgress() {
                @Override
                public void warning(String line) {
                  warnings.add(line);
                }
              });
      SweepRunner.Outcome out = runner.run(d, identity, o);
      assertThat(out.failure()).isNull();
      HalfRun half = out.half();
      assertThat(half.cells()).hasSize(2);
      Cell first = half.cells().get(0);
      Cell second = half.cells().get(1);
      assertThat(first.drainTimeout()).as("the first cell starts on an empty queue").isNull();
      assertThat(second.drainTimeout()).as("the second cell inherits the backlog").isNotNull();
      assertThat(second.drainTimeout().queueDepth()).isNotNull().isPositive();
      assertThat(second.drainWaitS()).isGreaterThanOrEqualTo(1.0);

      List<CellProblem> secondProblems =
          CellProblems.of(second, identity, VerdictConfig.defaults());
      assertThat(secondProblems)
          .filteredOn(p -> p.kind() == ProblemKind.DRAIN_TIMEOUT)
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.excludesEvidence()).isTrue();
                assertThat(p.message())
                    .startsWith("the drain before this cell gave up after 1 s: audit queue depth ")
                    .contains(
                        "audit queue depth "
                            + dev.ceiling.core.json.Json.mapper()
                                .writeValueAsString(second.drainTimeout().queueDepth())
                                .replaceAll("\\.0$", ""));
              });
      assertThat(CellProblems.of(first, identity, VerdictConfig.defaults()))
          .extracting(CellProblem::kind)
          .doesNotContain(ProblemKind.DRAIN_TIMEOUT);
      assertThat(warnings)
          .anyMatch(
              w ->
                  w.startsWith("backlog did not drain within 1 s")
                      && w.contains("; cell " + second.sequence() + " starts on it and is excluded")
                      && w.contains("DRAIN_TIMEOUT"));
    }
  }
}
