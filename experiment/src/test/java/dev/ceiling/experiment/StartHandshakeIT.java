package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Target;
import dev.ceiling.experiment.internal.GeneratorChild;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.SegmentMerge;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.generator.testing.TestRelay;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The start handshake of {@link GeneratorProcesses}: the shared start instant is fixed only once
 * every child is ready. Real child JVMs (segment 1 a stand-in: the real child held back, or one
 * that never gets ready) against a relay that acknowledges every event at once. Known answer, as
 * {@code ScaleOutIT}'s: 50 events/s for 3 s after a 0.2 s warm-up is slots 10..159 of one schedule,
 * so the merged cell sent and had accepted exactly 150 events and sent 10 warm-up slots.
 */
class StartHandshakeIT {
  static final long PLANNED = 150;
  static final long WARMUP_SLOTS = 10;

  /** The never-ready test's bound: long enough for the real child beside it on a loaded machine. */
  static final Duration SHORT_BOUND = Duration.ofSeconds(30);

  static TestRelay relay;

  @BeforeAll
  static void up() throws Exception {
    relay = new TestRelay(new TestRelay.Behavior() {});
  }

  @AfterAll
  static void down() throws Exception {
    if (relay != null) {
      relay.close();
    }
  }

  static GeneratorConfig cfg() {
    Target t = new Target("a", relay.url(), null, List.of(), 1, 64);
    return GeneratorConfig.builder()
        .load(new TargetLoad(t, 50, 2, 2))
        // 3 s: a process held up beside busy loops longer than the send deadline's 10% of the
        // duration drops slots (ScaleOutIT.DURATION_S).
        .duration(Duration.ofSeconds(3))
        .warmup(Duration.ofMillis(200))
        .sendLagBound(Duration.ofMillis(25))
        .publishTimeout(Duration.ofSeconds(5))
        .build();
  }

  static GeneratorProcesses.ChildMain segmentOneIs(Class<?> standIn) {
    return i -> i == 1 ? standIn.getName() : GeneratorChild.class.getName();
  }

  /** The merged report is the whole schedule, every slot sent and accepted once. */
  static void assertWholeSchedule(GeneratorReport r, List<String> lines) {
    GeneratorReport.Result a = r.aggregate();
    String why = "; lines:\n" + String.join("\n", lines);
    assertThat(a.slotsPlanned()).as("planned" + why).isEqualTo(PLANNED);
    assertThat(a.attempted()).as("attempted = planned slots" + why).isEqualTo(PLANNED);
    assertThat(a.accepted()).as("accepted = planned slots" + why).isEqualTo(PLANNED);
    assertThat(a.warmupSlotsSent()).as("warm-up slots sent" + why).isEqualTo(WARMUP_SLOTS);
    assertThat(a.unacknowledged()).as("unacknowledged" + why).isZero();
  }

  /**
   * A child that never says it is ready fails the cell once the bound has passed, not before and
   * not much after, naming its segment and quoting its last line.
   */
  @Test
  void aChildThatNeverGetsReadyIsNamedWithinTheBound() {
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    GeneratorProcesses p =
        new GeneratorProcesses(
            2,
            lines::add,
            SegmentMerge::merge,
            segmentOneIs(NeverReadyChild.class),
            SHORT_BOUND,
            GeneratorProcesses.AFTER_LAST_READY);
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> p.run(cfg()))
        .isInstanceOf(GeneratorException.class)
        .satisfies(
            e ->
                assertThat(((GeneratorException) e).kind())
                    .isEqualTo(GeneratorException.Kind.INFRASTRUCTURE))
        .hasMessageContaining("segment 1/2 (pid ")
        .hasMessageContaining("last line: " + NeverReadyChild.LINE)
        .hasMessageContaining("was not ready (pre-signed, connected and warm) within 30.0 s");
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(took).isGreaterThanOrEqualTo(SHORT_BOUND);
    // The poll, and killing both children (at most 10 s each), come after the bound.
    assertThat(took).isLessThan(SHORT_BOUND.plusSeconds(30));
  }

  /**
   * A child that gets ready later than the old fixed lead (15 s) holds the start instant back until
   * it is ready: nothing excluded, the whole schedule merged. The partner of the test above (the
   * same stand-in route, ready within the bound, is not named) and of the one below.
   */
  @Test
  void aSlowChildHoldsTheStartInstantBackAndNothingIsExcluded() throws Exception {
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    Instant launched = Instant.now();
    GeneratorReport r =
        new GeneratorProcesses(
                2,
                lines::add,
                SegmentMerge::merge,
                segmentOneIs(SlowReadyChild.class),
                null,
                GeneratorProcesses.AFTER_LAST_READY)
            .run(cfg());
    assertWholeSchedule(r, List.copyOf(lines));
    assertThat(r.startAt()).isAfter(launched.plus(SlowReadyChild.HOLD_BACK));
    assertThat(lines).anyMatch(l -> l.startsWith("all 2 ready "));
    assertThat(lines).anyMatch(l -> l.startsWith("segment 1/2: clock starts at " + r.startAt()));
  }

  /**
   * The negative control: the same slow child under a parent that fixes the start instant 15 s
   * after launch (the old fixed lead) cannot keep it, and the cell fails.
   */
  @Test
  void aFixedLeadFromLaunchLosesTheSlowChild() {
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    GeneratorProcesses fixedLead =
        new GeneratorProcesses(
            2,
            lines::add,
            SegmentMerge::merge,
            segmentOneIs(SlowReadyChild.class),
            null,
            (launched, lastReady) -> launched.plusSeconds(15));
    assertThatThrownBy(() -> assertWholeSchedule(fixedLead.run(cfg()), List.copyOf(lines)))
        .isInstanceOf(GeneratorException.class)
        .hasMessageMatching(
            "(?s)the generator process for segment [01]/2 exited 3: not ready at the start"
                + " instant .*");
  }
}
