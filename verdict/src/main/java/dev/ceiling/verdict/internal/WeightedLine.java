package dev.ceiling.verdict.internal;

/**
 * The weighted least-squares line y = intercept + slope x through points with positive weights, in
 * closed form (two passes around the weighted means, so a constant offset in x or y costs no
 * precision). Immutable; the variances take the residual variance s^2 per unit weight from the
 * caller.
 *
 * @param n points
 * @param sumW the sum of the weights
 * @param meanX the weighted mean of x
 * @param meanY the weighted mean of y
 * @param sxx sum of w (x - meanX)^2, &gt; 0
 * @param slope sum of w (x - meanX)(y - meanY) / sxx
 * @param intercept meanY - slope meanX
 * @param sse sum of w (y - intercept - slope x)^2
 */
public record WeightedLine(
    int n,
    double sumW,
    double meanX,
    double meanY,
    double sxx,
    double slope,
    double intercept,
    double sse) {

  /**
   * Fits the line.
   *
   * @throws IllegalArgumentException when the arrays differ in length or x takes one value only
   */
  public static WeightedLine fit(double[] x, double[] y, double[] w) {
    if (x.length != y.length || x.length != w.length) {
      throw new IllegalArgumentException(
          "x, y and w must have one length, got " + x.length + ", " + y.length + ", " + w.length);
    }
    double sumW = 0;
    double sx = 0;
    double sy = 0;
    for (int i = 0; i < x.length; i++) {
      sumW += w[i];
      sx += w[i] * x[i];
      sy += w[i] * y[i];
    }
    double mx = sx / sumW;
    double my = sy / sumW;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < x.length; i++) {
      sxx += w[i] * (x[i] - mx) * (x[i] - mx);
      sxy += w[i] * (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0)) {
      throw new IllegalArgumentException("a line needs at least two distinct x values");
    }
    double slope = sxy / sxx;
    double intercept = my - slope * mx;
    double sse = 0;
    for (int i = 0; i < x.length; i++) {
      double r = y[i] - intercept - slope * x[i];
      sse += w[i] * r * r;
    }
    return new WeightedLine(x.length, sumW, mx, my, sxx, slope, intercept, sse);
  }

  /** The line's value at {@code x}. */
  public double at(double x) {
    return intercept + slope * x;
  }

  /** Var(slope) given the residual variance per unit weight {@code s2}. */
  public double slopeVariance(double s2) {
    return s2 / sxx;
  }

  /** Var(intercept) given {@code s2}. */
  public double interceptVariance(double s2) {
    return s2 * (1 / sumW + meanX * meanX / sxx);
  }

  /** Var of the fitted value at {@code x} given {@code s2}. */
  public double fittedVariance(double x, double s2) {
    return s2 * (1 / sumW + (x - meanX) * (x - meanX) / sxx);
  }
}
