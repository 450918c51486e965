package dev.ceiling.generator.internal;

import org.HdrHistogram.Histogram;

/**
 * The generator's self-check, a pure rule (documented in docs/GENERATOR.md): a target's slots are
 * generator-bound when
 *
 * <ol>
 *   <li>any slot was still unsent at the send deadline (clock start + duration + late-send slack),
 *       or
 *   <li>the send lag p99 exceeds {@code max(1 ms, 10% of the interval between this process's
 *       consecutive slots of that target)}.
 * </ol>
 *
 * Slots skipped because the relay closed their connection do not count: that is the relay's doing
 * and is reported as a transport error. Slots that waited for the in-flight cap do count (the offer
 * was not kept), and the reason says so, so nobody blames the CPU for it.
 */
public final class SelfCheck {
  /** The floor of the send-lag bound: below this, scheduler noise on a shared box dominates. */
  public static final long LAG_FLOOR_US = 1_000;

  /** The bound as a fraction of the slot interval, for slow schedules. */
  public static final double LAG_FRACTION_OF_INTERVAL = 0.10;

  private SelfCheck() {}

  /** The send-lag p99 bound in µs for slots {@code intervalNanos} apart. */
  public static long lagBoundUs(double intervalNanos) {
    return Math.max(LAG_FLOOR_US, (long) (LAG_FRACTION_OF_INTERVAL * intervalNanos / 1000.0));
  }

  /**
   * The reason these slots are generator-bound, or null when they are not.
   *
   * @param intervalNanos time between consecutive slots of this target in this process
   * @param planned slots planned
   * @param unsentLate slots unsent at the send deadline
   * @param capDelayed slots that waited for the in-flight cap
   * @param sendLagUs send lag of every sent slot, µs
   */
  public static String reason(
      double intervalNanos, long planned, long unsentLate, long capDelayed, Histogram sendLagUs) {
    StringBuilder why = new StringBuilder();
    if (unsentLate > 0) {
      why.append(unsentLate)
          .append(" of ")
          .append(planned)
          .append(" slots still unsent at the send deadline");
    }
    long bound = lagBoundUs(intervalNanos);
    if (sendLagUs.getTotalCount() > 0) {
      long p99 = sendLagUs.getValueAtPercentile(99);
      if (p99 > bound) {
        if (why.length() > 0) {
          why.append("; ");
        }
        why.append("send lag p99 ")
            .append(p99 / 1000.0)
            .append(" ms > bound ")
            .append(bound / 1000.0)
            .append(" ms");
      }
    }
    if (why.length() == 0) {
      return null;
    }
    if (capDelayed > 0) {
      why.append(" (")
          .append(capDelayed)
          .append(" slots waited for the in-flight cap: the relay's slowness held them)");
    }
    return why.toString();
  }
}
