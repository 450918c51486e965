package dev.ceiling.generator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.testing.Property;
import dev.ceiling.generator.Segment;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

class SchedulePropertyTest {

  /** What the checks need from a schedule, so a mutant can be run through the same checks. */
  interface View {
    long totalSlots();

    long ownedSlots();

    long globalSlot(long j);

    long dueOffsetNanos(long k);

    int connectionOf(long j);
  }

  static View real(Schedule s) {
    return new View() {
      @Override
      public long totalSlots() {
        return s.totalSlots();
      }

      @Override
      public long ownedSlots() {
        return s.ownedSlots();
      }

      @Override
      public long globalSlot(long j) {
        return s.globalSlot(j);
      }

      @Override
      public long dueOffsetNanos(long k) {
        return s.dueOffsetNanos(k);
      }

      @Override
      public int connectionOf(long j) {
        return s.connectionOf(j);
      }
    };
  }

  /** Slot count r x D (+-1), and every due time strictly inside the duration. */
  static void checkCount(View v, double rate, long durNanos) {
    double expected = rate * durNanos / 1e9;
    assertThat((double) v.totalSlots())
        .isCloseTo(expected, org.assertj.core.data.Offset.offset(1.0));
    assertThat(v.dueOffsetNanos(v.totalSlots() - 1)).isLessThan(durNanos);
  }

  /**
   * Even spacing of a segment's slots across its connections: consecutive due times differ by N/r
   * (+-1 ns of rounding) and connections take strict turns, so no burst of one per connection.
   */
  static void checkSpacing(View v, double rate, int segments, int conns) {
    double interval = 1e9 * segments / rate;
    long n = Math.min(v.ownedSlots(), 5000);
    for (long j = 1; j < n; j++) {
      long d = v.dueOffsetNanos(v.globalSlot(j)) - v.dueOffsetNanos(v.globalSlot(j - 1));
      assertThat((double) d)
          .as("gap before slot %d", j)
          .isCloseTo(interval, org.assertj.core.data.Offset.offset(1.0));
      assertThat(v.connectionOf(j)).isEqualTo((int) (j % conns));
    }
  }

  /** The N segments' owned slots are disjoint and their union is the whole schedule. */
  static void checkPartition(java.util.function.IntFunction<View> segmentView, int segments) {
    long total = segmentView.apply(0).totalSlots();
    BitSet seen = new BitSet();
    long owned = 0;
    for (int i = 0; i < segments; i++) {
      View v = segmentView.apply(i);
      for (long j = 0; j < v.ownedSlots(); j++) {
        int k = (int) v.globalSlot(j);
        assertThat(seen.get(k)).as("slot %d owned twice", k).isFalse();
        seen.set(k);
        owned++;
      }
    }
    assertThat(owned).isEqualTo(total);
    assertThat(seen.nextClearBit(0)).isEqualTo((int) total);
  }

  @Test
  void slotCountSpacingAndPartitionHold() {
    Property.forAll(
        "schedule",
        200,
        rnd -> {
          double rate = 0.5 + rnd.nextDouble() * 5000;
          long dur = 1_000_000L + rnd.nextLong(3_000_000_000L);
          int n = 1 + rnd.nextInt(7);
          int conns = 1 + rnd.nextInt(9);
          checkCount(real(new Schedule(rate, dur, Segment.WHOLE, conns)), rate, dur);
          for (int i = 0; i < n; i++) {
            checkSpacing(real(new Schedule(rate, dur, new Segment(i, n), conns)), rate, n, conns);
          }
          checkPartition(i -> real(new Schedule(rate, dur, new Segment(i, n), conns)), n);
        });
  }

  @Test
  void exactProductsDoNotGrowASlot() {
    assertThat(new Schedule(1000, 1_000_000_000L, Segment.WHOLE, 1).totalSlots()).isEqualTo(1000);
    assertThat(new Schedule(3, 1_000_000_000L, Segment.WHOLE, 1).totalSlots()).isEqualTo(3);
    assertThat(new Schedule(2.5, 1_000_000_000L, Segment.WHOLE, 1).totalSlots()).isEqualTo(3);
    Schedule s = new Schedule(10, 1_000_000_000L, new Segment(2, 3), 2);
    assertThat(s.ownedSlots()).isEqualTo(3); // k = 2, 5, 8
    assertThat(s.globalSlot(2)).isEqualTo(8);
    assertThat(s.ownedDueOffsetNanos(1)).isEqualTo(500_000_000L);
  }

  // ---- mutants: each must be caught by the same checks ----

  /** A schedule that fires one slot per connection at once (a burst of conns). */
  static View burstMutant(Schedule s, int conns) {
    View r = real(s);
    return new View() {
      @Override
      public long totalSlots() {
        return r.totalSlots();
      }

      @Override
      public long ownedSlots() {
        return r.ownedSlots();
      }

      @Override
      public long globalSlot(long j) {
        return r.globalSlot(j);
      }

      @Override
      public long dueOffsetNanos(long k) {
        return r.dueOffsetNanos(k - k % conns);
      }

      @Override
      public int connectionOf(long j) {
        return r.connectionOf(j);
      }
    };
  }

  /** Segments by contiguous blocks with a truncating division: loses the tail slots. */
  static View blockMutant(Schedule s, int i, int n) {
    View r = real(s);
    long per = r.totalSlots() / n;
    return new View() {
      @Override
      public long totalSlots() {
        return r.totalSlots();
      }

      @Override
      public long ownedSlots() {
        return per;
      }

      @Override
      public long globalSlot(long j) {
        return i * per + j;
      }

      @Override
      public long dueOffsetNanos(long k) {
        return r.dueOffsetNanos(k);
      }

      @Override
      public int connectionOf(long j) {
        return r.connectionOf(j);
      }
    };
  }

  @Test
  void mutantsAreCaught() {
    assertThatThrownBy(
            () ->
                checkSpacing(
                    burstMutant(new Schedule(100, 1_000_000_000L, Segment.WHOLE, 4), 4), 100, 1, 4))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(
            () ->
                checkPartition(
                    i -> blockMutant(new Schedule(100, 1_010_000_000L, new Segment(i, 3), 1), i, 3),
                    3))
        .isInstanceOf(AssertionError.class);
    // A count that rounds r x D down by more than one slot.
    Schedule s = new Schedule(100, 1_000_000_000L, Segment.WHOLE, 1);
    View shortCount =
        new View() {
          @Override
          public long totalSlots() {
            return s.totalSlots() - 2;
          }

          @Override
          public long ownedSlots() {
            return s.ownedSlots() - 2;
          }

          @Override
          public long globalSlot(long j) {
            return j;
          }

          @Override
          public long dueOffsetNanos(long k) {
            return s.dueOffsetNanos(k);
          }

          @Override
          public int connectionOf(long j) {
            return 0;
          }
        };
    assertThatThrownBy(() -> checkCount(shortCount, 100, 1_000_000_000L))
        .isInstanceOf(AssertionError.class);
  }
}
