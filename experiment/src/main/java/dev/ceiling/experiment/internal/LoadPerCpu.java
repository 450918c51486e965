package dev.ceiling.experiment.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The 1-minute load average divided by the CPU count. Its resolution is poor for short cells: it is
 * an exponentially weighted average with a one-minute time constant, so a 10 s cell moves it by
 * roughly 15% of the change. It is recorded to show a machine that was busy with something else,
 * not to measure the cell.
 */
public final class LoadPerCpu {
  private LoadPerCpu() {}

  /** The current load per CPU, or null where the platform does not report a load average. */
  public static Double now() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    double load = os.getSystemLoadAverage();
    return load < 0 ? null : load / os.getAvailableProcessors();
  }
}
