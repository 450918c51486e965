package dev.ceiling.generator.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's scheduler statistics from Linux's {@code /proc/thread-self/schedstat}: time
 * on a CPU and time runnable but waiting in a run queue, both in ns since the thread started. The
 * second is what tells a starved generator (other processes took the cores) from a saturated one.
 */
final class SchedStat {
  private static final Path SELF = Path.of("/proc/thread-self/schedstat");

  private SchedStat() {}

  /**
   * {@code {cpuNanos, runQueueWaitNanos}} of the calling thread, or null when /proc does not say.
   */
  static long[] current() {
    try {
      return parse(Files.readString(SELF, StandardCharsets.US_ASCII));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Parses "cpu_ns wait_ns timeslices"; null when the text is not that. */
  static long[] parse(String text) {
    String[] f = text.trim().split("\\s+", -1);
    if (f.length < 2) {
      return null;
    }
    try {
      long cpu = Long.parseLong(f[0]);
      long wait = Long.parseLong(f[1]);
      return cpu < 0 || wait < 0 ? null : new long[] {cpu, wait};
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
