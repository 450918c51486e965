package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.Property;
import dev.ceiling.generator.internal.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * For random rates, durations, warm-ups and N: the segments' due times together are the whole
 * schedule's, each exactly once, and the merged report's counts equal what one process offering the
 * whole schedule plans.
 */
class SegmentMergePropertyTest {

  /** Slots of a segment inside the warm-up, as the engine counts them (left out of every count). */
  static long warmupSlots(Schedule s, long warmupNanos) {
    long j = 0;
    while (j < s.ownedSlots() && s.ownedDueOffsetNanos(j) < warmupNanos) {
      j++;
    }
    return j;
  }

  @Test
  void segmentsPartitionTheScheduleAndMergedCountsEqualOneProcesssPlannedSlots() {
    Property.forAll(
        "segments partition the schedule, merged counts = whole",
        300,
        (SplittableRandom rnd) -> {
          double rate = Math.exp(rnd.nextDouble(Math.log(0.5), Math.log(5_000)));
          long durationNanos = rnd.nextLong(1_000_000L, 3_000_000_000L);
          long warmupNanos = rnd.nextBoolean() ? 0 : rnd.nextLong(0, 1_000_000_000L);
          int n = rnd.nextInt(1, 9);
          long totalNanos = warmupNanos + durationNanos;
          Schedule whole = new Schedule(rate, totalNanos, Segment.WHOLE, rnd.nextInt(1, 5));
          long total = whole.totalSlots();
          long[] wholeDue = new long[(int) total];
          for (int k = 0; k < total; k++) {
            wholeDue[k] = whole.dueOffsetNanos(k);
          }
          long[] unionDue = new long[(int) total];
          boolean[] seen = new boolean[(int) total];
          int filled = 0;
          List<SegmentMerge.Input> inputs = new ArrayList<>();
          long sentSum = 0;
          long acceptedSum = 0;
          for (int i = 0; i < n; i++) {
            Schedule s = new Schedule(rate, totalNanos, new Segment(i, n), rnd.nextInt(1, 5));
            for (long j = 0; j < s.ownedSlots(); j++) {
              int k = (int) s.globalSlot(j);
              assertThat(k).isBetween(0, (int) total - 1);
              assertThat(seen[k]).as("slot %d owned twice", k).isFalse();
              seen[k] = true;
              unionDue[filled++] = s.ownedDueOffsetNanos(j);
            }
            long planned = s.ownedSlots() - warmupSlots(s, warmupNanos);
            long sent = planned == 0 ? 0 : rnd.nextLong(0, planned + 1);
            long accepted = sent == 0 ? 0 : rnd.nextLong(0, sent + 1);
            sentSum += sent;
            acceptedSum += accepted;
            inputs.add(
                SegmentReports.input(
                    "seg" + i + ".json",
                    SegmentReports.report(
                        i,
                        n,
                        rate,
                        SegmentReports.result(
                            rate / n,
                            planned,
                            sent,
                            accepted,
                            0,
                            SegmentReports.us(1000),
                            SegmentReports.us(1000),
                            null))));
          }
          assertThat(filled).isEqualTo((int) total);
          Arrays.sort(unionDue);
          assertThat(unionDue).isEqualTo(wholeDue);
          GeneratorReport merged;
          try {
            java.util.Collections.shuffle(inputs, new java.util.Random(rnd.nextLong()));
            merged = SegmentMerge.merge(inputs);
          } catch (SegmentMergeException e) {
            throw new AssertionError(e.getMessage(), e);
          }
          long wholePlanned = total - warmupSlots(whole, warmupNanos);
          assertThat(merged.aggregate().slotsPlanned()).isEqualTo(wholePlanned);
          assertThat(merged.targets().get(0).result().slotsPlanned()).isEqualTo(wholePlanned);
          assertThat(merged.aggregate().slotsSent()).isEqualTo(sentSum);
          assertThat(merged.aggregate().accepted()).isEqualTo(acceptedSum);
          assertThat(merged.aggregate().slotsUnsentLate()).isEqualTo(wholePlanned - sentSum);
          assertThat(merged.aggregate().offeredPerS()).isEqualTo(rate);
          assertThat(merged.aggregate().scheduled().count()).isEqualTo(n);
        });
  }
}
