package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.internal.Welch;

/**
 * A point estimate with its standard error and a two-sided Student-t interval. The unit is the
 * estimated quantity's, named by the field that holds it.
 *
 * @param value the estimate
 * @param standardError its estimated standard error, finite and &gt;= 0 (0 makes the interval the
 *     point itself, which is no evidence of precision: callers treat it as degenerate)
 * @param df degrees of freedom of the t reference, &gt; 0 (fractional for a Welch-Satterthwaite
 *     combination)
 * @param lower value - t(1 - (1 - level) / 2; df) x standardError
 * @param upper value + the same half-width
 * @param level the interval's two-sided confidence level, in (0, 1)
 */
public record Estimate(
    double value, double standardError, double df, double lower, double upper, double level) {
  public Estimate {
    // Checked cheaply first: error-rate tests build these by the hundred thousand, and the
    // messages are only worth formatting when something is wrong.
    boolean ok =
        Double.isFinite(value)
            && standardError >= 0
            && Double.isFinite(standardError)
            && df > 0
            && Double.isFinite(df)
            && lower <= value
            && value <= upper
            && level > 0
            && level < 1;
    if (!ok) {
      new Checks()
          .require(Double.isFinite(value), "value must be finite, got " + value)
          .nonNegativeFinite("standard_error", standardError)
          .positiveFinite("df", df)
          .require(lower <= value && value <= upper, "lower <= value <= upper must hold")
          .require(level > 0 && level < 1, "level must be in (0, 1), got " + level)
          .orThrow();
    }
  }

  /** The estimate with its interval computed at {@code level} from Student's t at {@code df}. */
  public static Estimate of(double value, double standardError, double df, double level) {
    if (!(level > 0 && level < 1)) {
      throw new IllegalArgumentException("level must be in (0, 1), got " + level);
    }
    if (!(df > 0) || Double.isInfinite(df)) {
      throw new IllegalArgumentException("df must be a finite number > 0, got " + df);
    }
    double half = Welch.tUpper(df, (1 - level) / 2) * standardError;
    return new Estimate(value, standardError, df, value - half, value + half, level);
  }

  /** "6.0123 [5.8001, 6.2245]". */
  String inWords() {
    return Fmt.stat(value) + " [" + Fmt.stat(lower) + ", " + Fmt.stat(upper) + "]";
  }
}
