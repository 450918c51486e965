package dev.ceiling.generator.internal;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * The machine's wake floor: how late the senders' own wait ({@link PacedWait#until}) returns when
 * nothing else is asked of the thread. Measured in the generator's process just before the clock,
 * so the self-check can tell lateness the machine imposes on any waiting thread (timer slack, a
 * vCPU the hypervisor wakes late) from lateness the generator causes. A sender is never expected to
 * beat this floor, so a bound below it would flag every run on the machine, whatever the generator
 * did.
 */
public final class WakeFloor {
  /** One wait of the probe: a slot interval of 1,000 events/s per sender, a common load. */
  static final long WAIT_NANOS = 1_000_000L;

  /** Fewer waits than this give no p99 worth stating: the floor is then unknown (null). */
  static final int MIN_WAITS = 100;

  private WakeFloor() {}

  /**
   * Waits {@link #WAIT_NANOS} at a time for {@code probe} with the senders' wait and returns the
   * p99 of how late each wait returned, µs, or null when {@code probe} holds fewer than {@link
   * #MIN_WAITS} waits. Blocks the calling thread for about {@code probe}.
   */
  public static Long measureP99Us(Duration probe) {
    Histogram lateUs = new Histogram(60_000_000L, 3);
    long end = System.nanoTime() + probe.toNanos();
    long due = System.nanoTime() + WAIT_NANOS;
    while (due <= end) {
      PacedWait.until(due);
      long late = System.nanoTime() - due;
      lateUs.recordValue(Math.min(lateUs.getHighestTrackableValue(), late / 1000));
      // Each wait starts from when the last one returned, as a sender's next pass does: a late
      // wake-up is measured once, not carried into every later wait.
      due = System.nanoTime() + WAIT_NANOS;
    }
    return lateUs.getTotalCount() < MIN_WAITS ? null : lateUs.getValueAtPercentile(99);
  }
}
