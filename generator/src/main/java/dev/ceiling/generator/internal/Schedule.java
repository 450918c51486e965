package dev.ceiling.generator.internal;

import dev.ceiling.generator.Segment;

/**
 * The pure schedule of one target: slot {@code k} (0-based, over the whole schedule and all
 * segments) is due at {@code start + k / rate}, for every {@code k} with {@code k / rate <
 * duration}. A segment i/N owns the slots with {@code k mod N == i}; its {@code j}-th owned slot is
 * {@code k = i + j N} and goes out on connection {@code j mod connections}, so each process's
 * connections take turns and the aggregate stays evenly spaced (never a burst of one slot per
 * connection).
 *
 * <p>Nothing here reads a clock or a response: the schedule cannot be rebased.
 *
 * @param ratePerS the target's rate over the whole schedule, > 0
 * @param durationNanos the schedule's length, > 0
 * @param segment this process's share
 * @param connections this process's connections to the target, >= 1
 */
public record Schedule(double ratePerS, long durationNanos, Segment segment, int connections) {

  public Schedule {
    if (!(ratePerS > 0) || Double.isInfinite(ratePerS)) {
      throw new IllegalArgumentException("rate must be a finite number > 0, got " + ratePerS);
    }
    if (durationNanos <= 0) {
      throw new IllegalArgumentException("duration must be > 0 ns, got " + durationNanos);
    }
    if (connections < 1) {
      throw new IllegalArgumentException("connections must be >= 1, got " + connections);
    }
  }

  /**
   * Slots in the whole schedule (all segments): the number of {@code k >= 0} with {@code k/r < D}.
   */
  public long totalSlots() {
    double x = ratePerS * (durationNanos / 1e9);
    // The 1e-9 keeps an exact product such as 1000 x 1 s from growing a slot through rounding.
    return Math.max(0, (long) Math.ceil(x - 1e-9 * Math.max(1.0, x)));
  }

  /** Slots this segment owns. */
  public long ownedSlots() {
    long total = totalSlots();
    return total > segment.index() ? (total - 1 - segment.index()) / segment.count() + 1 : 0;
  }

  /** The global slot number of this segment's {@code j}-th slot. */
  public long globalSlot(long j) {
    return segment.index() + j * segment.count();
  }

  /** Nanoseconds from the clock start to global slot {@code k}'s due time. */
  public long dueOffsetNanos(long k) {
    return Math.round(k * (1e9 / ratePerS));
  }

  /** Nanoseconds from the clock start to this segment's {@code j}-th slot. */
  public long ownedDueOffsetNanos(long j) {
    return dueOffsetNanos(globalSlot(j));
  }

  /** The connection (0-based) this segment's {@code j}-th slot goes out on. */
  public int connectionOf(long j) {
    return (int) (j % connections);
  }

  /** Nanoseconds between consecutive slots of this segment across all its connections. */
  public double segmentIntervalNanos() {
    return 1e9 * segment.count() / ratePerS;
  }
}
