package dev.ceiling.generator.internal;

import org.HdrHistogram.Histogram;

/**
 * The generator's self-check, a pure rule (documented in docs/GENERATOR.md): a target's slots are
 * generator-bound when
 *
 * <ol>
 *   <li>any slot was still unsent at the send deadline (clock start + duration + late-send slack),
 *       or
 *   <li>the send lag p99 exceeds {@code max(configured bound, 2 x the machine's wake floor p99, 10%
 *       of the interval between this process's consecutive slots of that target)}.
 * </ol>
 *
 * Slots skipped because the relay closed their connection do not count: that is the relay's doing
 * and is reported as a transport error. Slots that waited for the in-flight cap do count (the offer
 * was not kept), and the reason says so, so nobody blames the CPU for it.
 */
public final class SelfCheck {
  /** The bound as a fraction of the slot interval, for slow schedules. */
  public static final double LAG_FRACTION_OF_INTERVAL = 0.10;

  /**
   * The bound as a multiple of the machine's wake floor p99. A sender waits once per pass and then
   * sends, so its lag is at least one wake-up's lateness; twice the floor leaves room for the send
   * itself and for the floor having been measured over one second, not the whole run, while still
   * flagging a sender that falls further behind than the machine explains.
   */
  public static final double LAG_MULTIPLE_OF_WAKE_FLOOR = 2.0;

  private SelfCheck() {}

  /** The send-lag p99 bound in µs for slots {@code intervalNanos} apart, the floor unknown. */
  public static long lagBoundUs(long configuredUs, double intervalNanos) {
    return lagBoundUs(configuredUs, null, intervalNanos);
  }

  /**
   * The send-lag p99 bound in µs: the largest of the configured bound, {@link
   * #LAG_MULTIPLE_OF_WAKE_FLOOR} times the machine's wake floor p99 ({@code wakeFloorP99Us}, null
   * when unknown), and {@link #LAG_FRACTION_OF_INTERVAL} of the interval between slots.
   */
  public static long lagBoundUs(long configuredUs, Long wakeFloorP99Us, double intervalNanos) {
    long byInterval = (long) (LAG_FRACTION_OF_INTERVAL * intervalNanos / 1000.0);
    long byFloor =
        wakeFloorP99Us == null ? 0 : (long) (LAG_MULTIPLE_OF_WAKE_FLOOR * wakeFloorP99Us);
    return Math.max(configuredUs, Math.max(byFloor, byInterval));
  }

  /**
   * One line naming the floor and which term set the bound, printed before the clock, e.g. "the
   * machine's wake floor (p99 1.4 ms) exceeds the configured bound 1.0 ms: send-lag p99 bound
   * applied 2.8 ms (2 x the floor)".
   *
   * @param configuredUs the configured bound, µs
   * @param wakeFloorP99Us the measured floor, µs, or null when it could not be measured
   * @param appliedUs the bound applied to the first target, µs
   */
  public static String boundLine(long configuredUs, Long wakeFloorP99Us, long appliedUs) {
    String configured = "the configured bound " + ms(configuredUs) + " ms";
    String applied = "send-lag p99 bound applied " + ms(appliedUs) + " ms";
    if (wakeFloorP99Us == null) {
      return "wake floor not measured (no probe, or too little time before the clock): " + applied;
    }
    String floor = "the machine's wake floor (p99 " + ms(wakeFloorP99Us) + " ms)";
    long byFloor = (long) (LAG_MULTIPLE_OF_WAKE_FLOOR * wakeFloorP99Us);
    if (appliedUs > configuredUs && appliedUs == byFloor) {
      // The floor alone above the bound is the case a user would otherwise read as a slow
      // generator; say it in those words.
      String what = wakeFloorP99Us > configuredUs ? floor : "twice " + floor;
      return what + " exceeds " + configured + ": " + applied + " (2 x the floor)";
    }
    if (appliedUs > configuredUs) {
      return floor + " is within " + configured + ": " + applied + " (10% of the slot interval)";
    }
    return floor + " is within " + configured + ": " + applied;
  }

  private static String ms(long us) {
    return String.format(java.util.Locale.ROOT, "%.1f", us / 1000.0);
  }

  /**
   * The reason these slots are generator-bound, or null when they are not.
   *
   * @param configuredUs the configured send-lag bound, µs
   * @param wakeFloorP99Us the machine's wake floor p99 measured before the clock, µs, or null
   * @param intervalNanos time between consecutive slots of this target in this process
   * @param planned slots planned
   * @param unsentLate slots unsent at the send deadline
   * @param capDelayed slots that waited for the in-flight cap
   * @param sendLagUs send lag of every sent slot, µs
   */
  public static String reason(
      long configuredUs,
      Long wakeFloorP99Us,
      double intervalNanos,
      long planned,
      long unsentLate,
      long capDelayed,
      Histogram sendLagUs) {
    StringBuilder why = new StringBuilder();
    if (unsentLate > 0) {
      why.append(unsentLate)
          .append(" of ")
          .append(planned)
          .append(" slots still unsent at the send deadline");
    }
    long bound = lagBoundUs(configuredUs, wakeFloorP99Us, intervalNanos);
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

  /**
   * On a CPU plus waiting for one below this share of their run, the senders were mostly asleep:
   * neither their own cost nor a crowded run queue explains the lag.
   */
  static final double ASLEEP_BELOW = 1.0 / 3;

  /**
   * Why a bound sender fell behind, from its threads' scheduler figures over their run: "sender
   * mostly asleep" when time on a CPU and waiting for one together are under a third of the run
   * (the lateness is in the wake-ups themselves: timer slack, or on a VM a halted vCPU the
   * hypervisor ran late; on this project's 2-core VM a bare 1 ms wait is late p99 0.3-1.5 ms, see
   * WakeLatencyBench); else "sender saturated" when they spent at least as long on a CPU as waiting
   * for one (the generator's own cost: spread the load over more processes), else "sender runnable
   * but not scheduled" (other work took the cores: quiet the machine or move the generator to
   * another one).
   *
   * @param cpuNanos sender threads' time on a CPU
   * @param runQueueWaitNanos their time runnable but waiting for a CPU, or null when unknown
   * @param runNanos their wall time (summed over threads)
   * @param wakeFloorP99Us the machine's wake floor measured before the clock, µs, or null
   */
  public static String cause(
      long cpuNanos, Long runQueueWaitNanos, long runNanos, Long wakeFloorP99Us) {
    String cpu = percent(cpuNanos, runNanos);
    if (runQueueWaitNanos == null) {
      return "sender CPU " + cpu + " of its run; run-queue wait unknown (no /proc schedstat)";
    }
    String wait = percent(runQueueWaitNanos, runNanos);
    if (runNanos > 0 && cpuNanos + runQueueWaitNanos < ASLEEP_BELOW * runNanos) {
      String floor =
          wakeFloorP99Us == null
              ? "its wake floor was not measured"
              : "later than the machine's wake floor (p99 " + ms(wakeFloorP99Us) + " ms) before it";
      return "sender mostly asleep: CPU "
          + cpu
          + ", run-queue wait "
          + wait
          + " of its run (the machine woke it late during the run, "
          + floor
          + ": timer slack, or a vCPU the hypervisor woke late; time this machine's bare wait"
          + " with WakeLatencyBench)";
    }
    if (runQueueWaitNanos > cpuNanos) {
      return "sender runnable but not scheduled: run-queue wait "
          + wait
          + " vs CPU "
          + cpu
          + " of its run (other work took the cores; quiet the machine or move the generator)";
    }
    return "sender saturated: CPU "
        + cpu
        + " vs run-queue wait "
        + wait
        + " of its run (the generator's own cost; spread the load over more processes)";
  }

  private static String percent(long part, long whole) {
    return whole <= 0 ? "?" : String.format(java.util.Locale.ROOT, "%.0f%%", 100.0 * part / whole);
  }
}
