package dev.ceiling.verdict;

import java.util.Locale;

/**
 * Shared arithmetic of the seeded error-rate tests: binomial allowances and replayable messages.
 */
final class ErrorRates {
  private ErrorRates() {}

  /** The standard deviation of an observed rate near {@code p} over {@code n} runs. */
  static double sigma(double p, int n) {
    return Math.sqrt(p * (1 - p) / n);
  }

  /** A message naming the rate, its accepted range and the seed that replays it; also printed. */
  static String msg(String what, double observed, double lo, double hi, long seed) {
    String line =
        String.format(
            Locale.ROOT,
            "%s %.4f, accepted [%.4f, %.4f] (seed %d; replay: -Dceiling.seed=%d)",
            what,
            observed,
            lo,
            hi,
            seed,
            seed);
    System.out.println(line);
    return line;
  }
}
