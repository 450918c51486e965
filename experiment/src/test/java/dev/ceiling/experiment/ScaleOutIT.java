package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.SegmentMerge;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --generators N}: a cell's load from N local generator processes (real child JVMs, the real
 * reference relay), their segment reports merged exactly into the cell. Known answer, far below
 * every limit: 50 events/s for 3 s after a 0.2 s warm-up is slots 10..159 of one schedule, so the
 * merged cell sent and had accepted exactly 150 events and sent exactly 10 warm-up slots, whichever
 * process owned which slot.
 */
class ScaleOutIT {
  static final double RATE_PER_S = 50;

  /**
   * 3 s, not 1 s: a slot is dropped only when its process is still behind at the send deadline,
   * which the generator sets 10% of the duration (at least 0.1 s) after the window. With 1 s that
   * is 0.1 s, and beside two busy loops a process is held up longer often enough to drop slots.
   */
  static final double DURATION_S = 3.0;

  static final long PLANNED = 150;
  static final long WARMUP_SLOTS = 10;

  @TempDir static Path dir;
  static RigHandle rig;

  @BeforeAll
  static void up() throws Exception {
    UpOptions up =
        UpOptions.of(RelayProfile.builtIn("reference"), "on", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(
                Map.of(
                    "port",
                    Integer.toString(freePort()),
                    "db_port",
                    Integer.toString(freePort()),
                    "exchange_delay_ms",
                    "0",
                    "queue_capacity",
                    "1000"));
    rig = Rig.up(up);
  }

  @AfterAll
  static void down() {
    if (rig != null) {
      rig.close();
    }
  }

  static int freePort() {
    return FreePorts.one();
  }

  /** The merged counts are the whole schedule's planned slots, each sent and accepted once. */
  static void assertWholeSchedule(
      long attempted, long accepted, Long warmupSent, long unacked, String generatorBoundReason) {
    String why = "; the generator's self-check: " + generatorBoundReason;
    assertThat(attempted).as("attempted = planned slots" + why).isEqualTo(PLANNED);
    assertThat(accepted).as("accepted = planned slots" + why).isEqualTo(PLANNED);
    assertThat(warmupSent).as("warm-up slots sent" + why).isEqualTo(WARMUP_SLOTS);
    assertThat(unacked).as("unacknowledged" + why).isZero();
  }

  @Test
  void aSweepWithTwoGeneratorProcessesMergesTheCellExactly() throws Exception {
    RigDescriptor d = rig.descriptor();
    RelayProfile p = RelayProfile.builtIn("reference");
    SweepOptions o =
        SweepOptions.defaults(dir.resolve("journal.jsonl"))
            .withWarmup(Duration.ofMillis(200))
            .withDrainTimeout(Duration.ofSeconds(30))
            .withSendLagBound(Duration.ofMillis(25))
            .withGenerators(2);
    var identity = Identities.of(p, d, List.of(RATE_PER_S), DURATION_S, 1, null, o.measurement());
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    SweepRunner runner =
        new SweepRunner(
            new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(5), 16 * 1024 * 1024),
            new SweepProgress() {
              @Override
              public void generatorLine(String line) {
                lines.add(line);
              }
            });
    SweepRunner.Outcome out = runner.run(d, identity, o);
    assertThat(out.failure()).as(String.join("\n", lines)).isNull();
    HalfRun half = out.half();
    assertThat(half.complete()).isTrue();
    assertThat(half.cells()).hasSize(1);
    Cell c = half.cells().get(0);
    assertWholeSchedule(
        c.attempted(),
        c.accepted(),
        c.warmupSlotsSent(),
        c.unacknowledged(),
        c.generatorBoundReason() + "; its lines:\n" + String.join("\n", lines));
    // Both processes really ran: each one's progress reached the sweep, labelled by segment.
    assertThat(lines).anyMatch(l -> l.startsWith("segment 0/2: clock starts at"));
    assertThat(lines).anyMatch(l -> l.startsWith("segment 1/2: clock starts at"));
    // The relay's own counter over the scraped window saw the load too (scrapes at the window's
    // wall-clock edges, from the parent): at least most of the window's events.
    Double relayAccepted = c.relay().counterDeltas().get("events_accepted");
    assertThat(relayAccepted).isNotNull().isGreaterThan(PLANNED / 2.0);
  }

  /**
   * The negative control: the same processes, with a "merge" that takes one process's report as the
   * cell's (what a runner that forgot the other segments would record), fails the same check.
   */
  @Test
  void aMergeThatKeepsOneSegmentIsCaught() throws Exception {
    GeneratorConfig cfg =
        GeneratorConfig.builder()
            .load(new TargetLoad(rig.descriptor().targets().get(0), RATE_PER_S, 2, 2))
            .duration(Duration.ofMillis(Math.round(DURATION_S * 1000)))
            .warmup(Duration.ofMillis(200))
            .sendLagBound(Duration.ofMillis(25))
            .publishTimeout(Duration.ofSeconds(5))
            .build();
    GeneratorReport real = new GeneratorProcesses(2, l -> {}).run(cfg);
    GeneratorReport.Result a = real.aggregate();
    assertThat(a.slotsPlanned()).isEqualTo(PLANNED);
    assertWholeSchedule(
        a.attempted(),
        a.accepted(),
        a.warmupSlotsSent(),
        a.unacknowledged(),
        real.generatorBoundReason());

    GeneratorReport oneSegment =
        new GeneratorProcesses(2, l -> {}, inputs -> firstSegment(inputs)).run(cfg);
    GeneratorReport.Result m = oneSegment.aggregate();
    assertThatThrownBy(
            () ->
                assertWholeSchedule(
                    m.attempted(),
                    m.accepted(),
                    m.warmupSlotsSent(),
                    m.unacknowledged(),
                    oneSegment.generatorBoundReason()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("attempted = planned slots");
  }

  private static GeneratorReport firstSegment(List<SegmentMerge.Input> inputs) {
    return inputs.stream()
        .filter(i -> i.report().segment().startsWith("0/"))
        .findFirst()
        .orElseThrow()
        .report();
  }
}
