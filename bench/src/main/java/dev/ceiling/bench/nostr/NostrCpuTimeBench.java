package dev.ceiling.bench.nostr;

import dev.ceiling.nostr.NostrException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Per-core capacity on a shared machine: the same operations as {@link NostrSignBench}, but timed
 * by the calling thread's CPU time rather than wall time, so the figure is ops per CPU-second (what
 * one fully available core would do) even when other processes take most of the CPU. JMH's
 * wall-clock throughput on an oversubscribed machine measures the scheduler, not the code.
 *
 * <p>Usage: {@code NostrCpuTimeBench [opsPerRound] [rounds]}; prints one line per (impl, op) with
 * the median and range over rounds.
 */
public final class NostrCpuTimeBench {
  private NostrCpuTimeBench() {}

  public static void main(String[] args) throws NostrException {
    int ops = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (String impl : new String[] {"secp256k1-jni", "bouncycastle"}) {
      NostrSignBench b = new NostrSignBench();
      b.impl = impl;
      b.setUp();
      // BouncyCastle is ~10x slower: fewer ops per round keep the run short, the rate unchanged.
      int n = impl.equals("bouncycastle") ? Math.max(200, ops / 10) : ops;
      report(mx, impl, "signEvent", n, rounds, () -> signEvent(b));
      report(mx, impl, "verifyEvent", n, rounds, () -> verifyEvent(b));
      report(mx, impl, "signRaw", n, rounds, () -> b.signRaw().length == 64);
      report(mx, impl, "verifyRaw", n, rounds, b::verifyRaw);
    }
  }

  private static boolean signEvent(NostrSignBench b) {
    try {
      return b.signEvent() != null;
    } catch (NostrException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean verifyEvent(NostrSignBench b) {
    try {
      return b.verifyEventBench();
    } catch (NostrException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void report(
      ThreadMXBean mx, String impl, String op, int n, int rounds, BooleanSupplier body) {
    // Warm-up round so the JIT has compiled the path before anything is timed.
    run(body, n);
    double[] perCpuSecond = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long cpu0 = mx.getCurrentThreadCpuTime();
      run(body, n);
      long cpuNanos = mx.getCurrentThreadCpuTime() - cpu0;
      perCpuSecond[r] = n / (cpuNanos / 1e9);
    }
    Arrays.sort(perCpuSecond);
    System.out.printf(
        Locale.ROOT,
        "%-14s %-12s median %,10.0f ops/cpu-s  (min %,.0f, max %,.0f, %d rounds x %d ops)%n",
        impl,
        op,
        perCpuSecond[rounds / 2],
        perCpuSecond[0],
        perCpuSecond[rounds - 1],
        rounds,
        n);
  }

  private static void run(BooleanSupplier body, int n) {
    for (int i = 0; i < n; i++) {
      if (!body.getAsBoolean()) {
        throw new IllegalStateException("operation failed on iteration " + i);
      }
    }
  }
}
