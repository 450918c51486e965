package dev.ceiling.generator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.testing.Property;
import dev.ceiling.generator.Segment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Batching never reorders a connection's slots and never moves an intended time: a simulated sender
 * (random pass times, random stalls) runs the real planner over random schedules.
 */
class SlotPlannerPropertyTest {
  static final long START = 5_000_000_000L;

  /** A lane over a real schedule, as the sender builds it. */
  static final class TestLane extends SlotPlanner.Lane {
    final Schedule schedule;
    final int conn;

    TestLane(Schedule s, int conn) {
      super(START, conn, s.connections(), s.ownedSlots());
      this.schedule = s;
      this.conn = conn;
    }

    @Override
    long offsetNanos(long j) {
      return schedule.ownedDueOffsetNanos(j);
    }
  }

  record Sent(long j, long due, long sendAt) {}

  /** The mutant: the next due time is the previous send plus one slot interval of the lane. */
  static final SlotPlanner.DueRule REBASING =
      (lane, j, prev) ->
          prev == 0
              ? lane.startNanos + lane.offsetNanos(j)
              : prev + lane.offsetNanos(j) - lane.offsetNanos(j - lane.stride);

  /** Runs one random case through {@code rule} and checks every slot of every lane. */
  static void check(SplittableRandom rnd, SlotPlanner.DueRule rule) {
    double rate = 10 + rnd.nextDouble() * 50_000;
    int conns = 1 + rnd.nextInt(8);
    int count = 1 + rnd.nextInt(3);
    Segment seg = new Segment(rnd.nextInt(count), count);
    // At most ~3,000 slots per case, so a try stays fast.
    long durNanos = (long) Math.max(1e6, Math.min(2e9, 3_000 / rate * 1e9));
    Schedule s = new Schedule(rate, durNanos, seg, conns);
    List<TestLane> lanes = new ArrayList<>();
    for (int c = 0; c < conns; c++) {
      // A sender owns a subset of the connections; the rest belong to another sender.
      if (c == 0 || rnd.nextBoolean()) {
        lanes.add(new TestLane(s, c));
      }
    }
    List<List<Sent>> byLane = new ArrayList<>();
    for (int i = 0; i < conns; i++) {
      byLane.add(new ArrayList<>());
    }
    SlotPlanner planner = new SlotPlanner(lanes, rule);
    long interval = (long) s.segmentIntervalNanos();
    long[] now = {START};
    int passes = 0;
    while (!planner.done()) {
      assertThat(passes++).as("passes").isLessThan(1_000_000);
      long next = planner.nextDue();
      // Wake at or after the next due time: late by a little, often; by a stall, sometimes.
      long late = 1 + rnd.nextLong(Math.max(2, 3 * interval));
      if (rnd.nextInt(50) == 0) {
        late += rnd.nextLong(50_000_000L);
      }
      now[0] = Math.max(now[0], next) + late;
      long at = now[0];
      planner.takeDue(
          at,
          (lane, slots, dues, n) -> {
            assertThat(n).isBetween(1, SlotPlanner.MAX_BATCH);
            TestLane tl = (TestLane) lane;
            for (int m = 0; m < n; m++) {
              byLane.get(tl.conn).add(new Sent(slots[m], dues[m], at));
            }
            return at;
          });
    }
    for (TestLane l : lanes) {
      List<Sent> got = byLane.get(l.conn);
      long expected = l.conn;
      for (Sent x : got) {
        assertThat(x.j()).as("connection %d's next slot", l.conn).isEqualTo(expected);
        assertThat(x.due())
            .as("slot %d's intended time", x.j())
            .isEqualTo(START + s.ownedDueOffsetNanos(x.j()));
        // Due at or before the pass is sendable: a slot due exactly at the wake-up is not early.
        assertThat(x.sendAt())
            .as("slot %d sent before it was due", x.j())
            .isGreaterThanOrEqualTo(x.due());
        expected += conns;
      }
      assertThat(expected)
          .as("connection %d's slots all sent", l.conn)
          .isGreaterThanOrEqualTo(s.ownedSlots());
    }
  }

  @Test
  void batchingNeverReordersAConnectionsSlotsNorMovesAnIntendedTime() {
    Property.forAll("planner keeps the schedule", 200, rnd -> check(rnd, SlotPlanner.SCHEDULE));
  }

  @Test
  void aSenderThatRebasesOnThePreviousSendIsCaught() {
    assertThatThrownBy(
            () ->
                Property.forAll(
                    "rebasing planner keeps the schedule", 200, rnd -> check(rnd, REBASING)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("intended time");
  }
}
