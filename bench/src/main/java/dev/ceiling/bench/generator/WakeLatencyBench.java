package dev.ceiling.bench.generator;

import dev.ceiling.generator.internal.PacedWait;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The machine's floor for any paced sender: one thread that does nothing but wait for due instants
 * a fixed period apart, exactly as the generator's sender waits, and records how late it woke. No
 * sockets, no relay, no other thread. Whatever lateness this shows, the generator cannot beat on
 * the same machine; its send lag is to be read against it.
 *
 * <p>Usage: {@code WakeLatencyBench [seconds] [periods µs, comma-separated]}.
 */
public final class WakeLatencyBench {
  private WakeLatencyBench() {}

  public static void main(String[] args) {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 10;
    String periods = args.length > 1 ? args[1] : "1000,200,100,50";
    // Warm the wait loop and the histogram before anything is recorded.
    run(200_000, 2e9);
    System.out.println(
        "| period µs | wakes | late p50 / p90 / p99 / p99.9 / max ms | steal | load before -> after |");
    System.out.println("|---|---|---|---|---|");
    for (String p : periods.split(",", -1)) {
      long periodNanos = Long.parseLong(p.trim()) * 1000;
      String load = GeneratorBench.loadAverage();
      CpuSteal before = CpuSteal.now();
      Histogram h = run(periodNanos, seconds * 1e9);
      System.out.println(
          String.format(
              Locale.ROOT,
              "| %d | %d | %.3f / %.3f / %.3f / %.3f / %.3f | %s | %s -> %s |",
              periodNanos / 1000,
              h.getTotalCount(),
              h.getValueAtPercentile(50) / 1e3,
              h.getValueAtPercentile(90) / 1e3,
              h.getValueAtPercentile(99) / 1e3,
              h.getValueAtPercentile(99.9) / 1e3,
              h.getMaxValue() / 1e3,
              CpuSteal.now().percentSince(before),
              load,
              GeneratorBench.loadAverage()));
    }
  }

  /** Waits for each due instant {@code periodNanos} apart, never rebased; lateness in µs. */
  private static Histogram run(long periodNanos, double forNanos) {
    Histogram late = new Histogram(3_600_000_000L, 3);
    long start = System.nanoTime() + 1_000_000;
    long n = (long) (forNanos / periodNanos);
    for (long k = 0; k < n; k++) {
      long due = start + k * periodNanos;
      PacedWait.until(due);
      late.recordValue(Math.max(0, (System.nanoTime() - due) / 1000));
    }
    return late;
  }
}
