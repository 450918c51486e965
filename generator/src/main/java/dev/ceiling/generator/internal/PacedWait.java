package dev.ceiling.generator.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * How a sender waits for its next due instant. Public so the bench's wake-latency floor
 * (WakeLatencyBench) times this very wait, not a copy of it.
 */
public final class PacedWait {
  /**
   * A wait shorter than this is not parked: {@code parkNanos} returns 50-60 µs late on Linux (the
   * default timer slack), so parking a shorter gap costs more than the gap. Longer gaps are parked
   * whole, and whatever fell due during the park's overshoot goes out in the same batch; waking
   * early to spin would burn the core the relay and Jetty's I/O threads need on a 2-core box.
   * Override with {@code -Dceiling.generator.parkCostNanos=N} to measure (docs/PERFORMANCE.md).
   */
  static final long PARK_COST_NANOS = Long.getLong("ceiling.generator.parkCostNanos", 50_000L);

  /**
   * Inside the park cost: true yields the core between checks, false spins ({@code onSpinWait}).
   * Yield by default: it gives way to a runnable Jetty or relay thread, and costs a spin when none
   * is. Override with {@code -Dceiling.generator.shortWait=spin} to measure.
   */
  static final boolean YIELD_SHORT_WAITS =
      !"spin".equals(System.getProperty("ceiling.generator.shortWait", "yield"));

  private PacedWait() {}

  /**
   * Returns at or after the absolute instant {@code due}: parks a wait longer than the park cost
   * whole (never waking early to spin), and yields or spins a shorter one.
   */
  // Thread.yield is the point here: measured against spinning, see PARK_COST_NANOS.
  @SuppressWarnings("ThreadPriorityCheck")
  public static void until(long due) {
    while (true) {
      long left = due - System.nanoTime();
      if (left <= 0) {
        return;
      }
      if (left > PARK_COST_NANOS) {
        LockSupport.parkNanos(left);
      } else if (YIELD_SHORT_WAITS) {
        Thread.yield();
      } else {
        Thread.onSpinWait();
      }
    }
  }
}
