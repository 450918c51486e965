package dev.ceiling.rig.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Sequential request-response exchanges through a proxy to an echo service, in alternating blocks
 * at d = 0 and at d, on one connection, so a drift in the machine's load touches both alike. Each
 * exchange sends a random payload and checks that exactly those bytes come back.
 */
final class PingPong {

  static final int BLOCK = 50;

  /** Round-trip times at d = 0 and at d, in order. */
  private final long[] baselineNanos;

  private final long[] delayedNanos;

  /** The proxy's wire turns over the measured exchanges. */
  private final long turns;

  /** How many exchanges were measured (both kinds). */
  private final long exchanges;

  private PingPong(long[] baselineNanos, long[] delayedNanos, long turns, long exchanges) {
    this.baselineNanos = baselineNanos;
    this.delayedNanos = delayedNanos;
    this.turns = turns;
    this.exchanges = exchanges;
  }

  long turns() {
    return turns;
  }

  long exchanges() {
    return exchanges;
  }

  /** Runs {@code blocks} blocks of {@link #BLOCK} exchanges (half at d = 0) after a warm-up. */
  static PingPong run(DelayProxy proxy, Duration d, int blocks, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    int perKind = blocks / 2 * BLOCK;
    long[] base = new long[perKind];
    long[] delayed = new long[perKind];
    try (Socket s = new Socket()) {
      s.setTcpNoDelay(true);
      s.connect(proxy.address(), 10_000);
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      DataInputStream in = new DataInputStream(s.getInputStream());
      proxy.setDelay(Duration.ZERO);
      for (int i = 0; i < 200; i++) {
        exchange(out, in, random);
      }
      LinkCounters before = proxy.counters();
      long bytes = 0;
      for (int b = 0; b < blocks; b++) {
        boolean delaying = b % 2 == 1;
        proxy.setDelay(delaying ? d : Duration.ZERO);
        long[] into = delaying ? delayed : base;
        for (int i = 0; i < BLOCK; i++) {
          long t0 = System.nanoTime();
          bytes += exchange(out, in, random);
          into[b / 2 * BLOCK + i] = System.nanoTime() - t0;
        }
      }
      LinkCounters delta = proxy.counters().minus(before);
      assertThat(delta.bytesToTarget()).as("bytes to target").isEqualTo(bytes);
      assertThat(delta.bytesToClient()).as("bytes to client").isEqualTo(bytes);
      return new PingPong(base, delayed, delta.turns(), 2L * perKind);
    }
  }

  /** One exchange: a payload of 1 to 64 random bytes out, the same bytes back. */
  private static int exchange(OutputStream out, DataInputStream in, SplittableRandom random)
      throws IOException {
    byte[] sent = new byte[1 + random.nextInt(64)];
    random.nextBytes(sent);
    out.write(sent);
    out.flush();
    byte[] got = new byte[sent.length];
    in.readFully(got);
    assertThat(got).as("echoed bytes").isEqualTo(sent);
    return sent.length;
  }

  /** Mean delayed RTT minus mean baseline RTT, ms. */
  double meanAddedMillis() {
    return (mean(delayedNanos) - mean(baselineNanos)) / 1e6;
  }

  /**
   * Fastest delayed RTT minus fastest baseline RTT, ms: the added delay on the exchanges no thread
   * waited for a CPU in. No delayed exchange can be faster than d plus the path, since every chunk
   * is held from its arrival; so this is d plus the timers' own wake-up, whatever the load.
   */
  double minimumAddedMillis() {
    return (quantile(delayedNanos, 0) - quantile(baselineNanos, 0)) / 1e6;
  }

  /**
   * Median delayed RTT minus median baseline RTT, ms: what a typical exchange gained, untouched by
   * the few exchanges a loaded machine stalls for milliseconds.
   */
  double medianAddedMillis() {
    return (quantile(delayedNanos, 0.5) - quantile(baselineNanos, 0.5)) / 1e6;
  }

  /** The added delay's quantile q: the delayed RTTs' quantile minus the baseline's mean, ms. */
  double addedQuantileMillis(double q) {
    return (quantile(delayedNanos, q) - mean(baselineNanos)) / 1e6;
  }

  private static double quantile(long[] xs, double q) {
    long[] sorted = xs.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  private static double mean(long[] xs) {
    return Arrays.stream(xs).average().orElseThrow();
  }
}
