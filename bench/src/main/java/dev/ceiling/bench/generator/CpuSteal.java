package dev.ceiling.bench.generator;

import com.google.common.base.Splitter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The machine's CPU time from /proc/stat's first line, so a benchmark can say what share of it the
 * hypervisor took ("steal") while a cell ran: on a shared VM a stolen vCPU makes every thread on it
 * late, whatever the program does, and a figure taken then is the host's, not ours.
 */
record CpuSteal(long totalTicks, long stealTicks) {
  static CpuSteal now() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
      List<String> f = Splitter.on(' ').omitEmptyStrings().splitToList(first);
      long total = 0;
      // cpu user nice system idle iowait irq softirq steal [guest guest_nice, already in user]
      for (int i = 1; i <= 8 && i < f.size(); i++) {
        total += Long.parseLong(f.get(i));
      }
      return new CpuSteal(total, f.size() > 8 ? Long.parseLong(f.get(8)) : 0);
    } catch (IOException | RuntimeException e) {
      return new CpuSteal(0, 0);
    }
  }

  /** Stolen share of all CPU time since {@code before}, as a percentage; "?" when unknown. */
  String percentSince(CpuSteal before) {
    long total = totalTicks - before.totalTicks;
    return total <= 0
        ? "?"
        : String.format(Locale.ROOT, "%.1f%%", 100.0 * (stealTicks - before.stealTicks) / total);
  }
}
