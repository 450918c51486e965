package dev.ceiling.relay;

import java.sql.SQLException;
import java.util.function.LongSupplier;

/**
 * The JIT warm-up before a timed loop: untimed batches until the code has stopped getting faster. A
 * cold calibration overstated the exchange cost by about a third (a prediction of 185/s against a
 * measured worker rate of 273/s), because HotSpot compiles the JDBC and H2 paths only after
 * thousands of calls. Stopping on stability rather than after a fixed count adapts to the machine:
 * two consecutive batch means within {@link #STABLE_FRACTION} of each other, after at least {@link
 * #MIN_RUNS} runs, or at the latest after {@link #MAX_NANOS}.
 */
final class WarmUp {
  /** Runs per batch. */
  static final int BATCH = 200;

  /** Fewest warm-up runs: below this C2 has usually not compiled the hot path. */
  static final int MIN_RUNS = 2_000;

  /** Two batch means this close (relative) count as stable. */
  static final double STABLE_FRACTION = 0.05;

  /** Longest warm-up: a relay must start in bounded time even on a machine that never settles. */
  static final long MAX_NANOS = 5_000_000_000L;

  /** One untimed run. */
  interface Step {
    void run() throws SQLException;
  }

  /**
   * What the warm-up did.
   *
   * @param runs runs done
   * @param stable true when it stopped on stability, false when it ran out of time
   */
  record Result(int runs, boolean stable) {}

  private WarmUp() {}

  static Result until(Step step, LongSupplier nanoClock) throws SQLException {
    long start = nanoClock.getAsLong();
    double previous = Double.NaN;
    int runs = 0;
    while (true) {
      long t0 = nanoClock.getAsLong();
      for (int i = 0; i < BATCH; i++) {
        step.run();
      }
      long t1 = nanoClock.getAsLong();
      runs += BATCH;
      double mean = (t1 - t0) / (double) BATCH;
      if (runs >= MIN_RUNS && Math.abs(mean - previous) <= STABLE_FRACTION * previous) {
        return new Result(runs, true);
      }
      if (t1 - start >= MAX_NANOS) {
        return new Result(runs, false);
      }
      previous = mean;
    }
  }
}
