package dev.ceiling.verdict.internal;

import java.util.Arrays;

/**
 * A sample's size, mean and unbiased variance (two-pass, so a constant sample has variance exactly
 * 0). Immutable.
 *
 * @param n size, &gt;= 1
 * @param mean arithmetic mean
 * @param variance sample variance (n - 1 denominator); 0 when n = 1
 */
public record Sample(int n, double mean, double variance) {
  public Sample {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    if (!Double.isFinite(mean) || !(variance >= 0) || Double.isInfinite(variance)) {
      throw new IllegalArgumentException(
          "mean and variance must be finite, variance >= 0, got " + mean + ", " + variance);
    }
  }

  public static Sample of(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("a sample needs at least one value, got []");
    }
    // Summing in a canonical (sorted) order makes the figures independent of the order the cells
    // were listed in, to the last bit, so a report is a function of its cells as a set.
    double[] xs = values.clone();
    Arrays.sort(xs);
    double mean = Arrays.stream(xs).sum() / xs.length;
    // A constant sample must give exactly its value and exactly zero variance, whatever rounding
    // the sum did: the degenerate rule keys on that.
    boolean constant = Arrays.stream(xs).allMatch(x -> x == xs[0]);
    if (constant) {
      return new Sample(xs.length, xs[0], 0.0);
    }
    double ss = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
    }
    return new Sample(xs.length, mean, xs.length > 1 ? ss / (xs.length - 1) : 0.0);
  }

  public double sd() {
    return Math.sqrt(variance);
  }
}
