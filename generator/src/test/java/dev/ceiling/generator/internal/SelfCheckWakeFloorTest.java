package dev.ceiling.generator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.LatencySummary;
import java.time.Duration;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The self-check's bound knows the machine: max(configured bound, 2 x the wake floor p99, 10% of
 * the slot interval), and its words tell a late-waking machine from the generator's own doing.
 */
class SelfCheckWakeFloorTest {
  static final long ONE_MS_US = 1_000;
  static final long FLOOR_3_MS_US = 3_000;

  /** 10 ms slots (100/s in one process): the 10% term is 1 ms. */
  static final double INTERVAL_10_MS_NANOS = 10_000_000;

  /**
   * A run on a machine whose every wake-up is about as late as its 3 ms floor: 1,000 slots sent
   * 2.0-3.5 ms after their due time (p99 about 3.5 ms), none unsent, none held by the cap.
   */
  static Histogram lagOfASlowWakingMachine() {
    Histogram h = LatencySummary.newHistogram();
    for (int i = 0; i < 1000; i++) {
      h.recordValue(2_000 + (i % 16) * 100);
    }
    return h;
  }

  @Test
  void aOneMsBoundOnAThreeMsFloorBecomesSixMsAndTheRunIsNotFlagged() {
    assertThat(SelfCheck.lagBoundUs(ONE_MS_US, FLOOR_3_MS_US, INTERVAL_10_MS_NANOS))
        .isEqualTo(6_000);
    Histogram lag = lagOfASlowWakingMachine();
    assertThat(lag.getValueAtPercentile(99)).isBetween(3_000L, 6_000L);
    assertThat(SelfCheck.reason(ONE_MS_US, FLOOR_3_MS_US, INTERVAL_10_MS_NANOS, 1000, 0, 0, lag))
        .isNull();
    // Partner: the same run judged without the floor (the old rule) is flagged at 1 ms.
    assertThat(SelfCheck.reason(ONE_MS_US, null, INTERVAL_10_MS_NANOS, 1000, 0, 0, lag))
        .startsWith("send lag p99 3.5")
        .contains("> bound 1.0 ms");
  }

  @Test
  void theLargestTermDecidesTheBound() {
    // The configured bound above both others.
    assertThat(SelfCheck.lagBoundUs(10_000, 3_000L, INTERVAL_10_MS_NANOS)).isEqualTo(10_000);
    // 10% of a 200 ms interval (20 ms) above 2 x 3 ms.
    assertThat(SelfCheck.lagBoundUs(ONE_MS_US, 3_000L, 200_000_000)).isEqualTo(20_000);
    // Floor unknown: the configured bound and the interval only.
    assertThat(SelfCheck.lagBoundUs(ONE_MS_US, null, INTERVAL_10_MS_NANOS)).isEqualTo(1_000);
  }

  @Test
  void aSaturatedGeneratorIsStillFlaggedAboveTheRaisedBound() {
    // Lag that grows slot by slot, as when each slot costs more than its interval: 0 to 500 ms.
    Histogram lag = LatencySummary.newHistogram();
    for (int i = 0; i < 100; i++) {
      lag.recordValue(i * 5_000L);
    }
    String reason =
        SelfCheck.reason(ONE_MS_US, FLOOR_3_MS_US, INTERVAL_10_MS_NANOS, 100, 0, 0, lag);
    assertThat(reason).contains("> bound 6.0 ms");
  }

  @Test
  void theWordsNameTheFloorWhenItRaisedTheBoundAndNotOtherwise() {
    assertThat(SelfCheck.boundLine(ONE_MS_US, 1_400L, 2_800))
        .isEqualTo(
            "the machine's wake floor (p99 1.4 ms) exceeds the configured bound 1.0 ms:"
                + " send-lag p99 bound applied 2.8 ms (2 x the floor)");
    assertThat(SelfCheck.boundLine(ONE_MS_US, 700L, 1_400))
        .isEqualTo(
            "twice the machine's wake floor (p99 0.7 ms) exceeds the configured bound 1.0 ms:"
                + " send-lag p99 bound applied 1.4 ms (2 x the floor)");
    // Partners: a floor well within the bound, and one the interval's 10% outweighs.
    assertThat(SelfCheck.boundLine(10_000, 300L, 10_000))
        .isEqualTo(
            "the machine's wake floor (p99 0.3 ms) is within the configured bound 10.0 ms:"
                + " send-lag p99 bound applied 10.0 ms");
    assertThat(SelfCheck.boundLine(ONE_MS_US, 300L, 20_000))
        .endsWith("applied 20.0 ms (10% of the slot interval)");
    assertThat(SelfCheck.boundLine(ONE_MS_US, null, 1_000)).startsWith("wake floor not measured");
  }

  @Test
  void aMostlyAsleepSenderIsToldApartFromASaturatedOneAndNamesTheFloor() {
    String asleep = SelfCheck.cause(40, 20L, 1000, 1_400L);
    assertThat(asleep)
        .startsWith("sender mostly asleep")
        .contains("later than the machine's wake floor (p99 1.4 ms) before it");
    String saturated = SelfCheck.cause(900, 50L, 1000, 1_400L);
    assertThat(saturated).startsWith("sender saturated").doesNotContain("wake floor");
    String crowded = SelfCheck.cause(100, 600L, 1000, 1_400L);
    assertThat(crowded).startsWith("sender runnable but not scheduled").doesNotContain("floor");
  }

  @Test
  void theProbeTimesTheSendersOwnWaitAndNeedsEnoughWaitsForAP99() {
    // Loose by design: a loaded machine wakes late, so only the shape is checked, never a time;
    // 2 s holds 100 waits unless the average wait returns 19 ms late.
    Long p99 = WakeFloor.measureP99Us(Duration.ofSeconds(2));
    assertThat(p99).isNotNull().isNotNegative();
    // Partner: a probe too short for 100 waits states no floor at all.
    assertThat(WakeFloor.measureP99Us(Duration.ofMillis(20))).isNull();
  }
}
