package dev.ceiling.verdict;

import java.math.BigDecimal;
import java.util.Locale;

/** Locale-independent number formatting for messages. Package-private on purpose. */
final class Fmt {
  private Fmt() {}

  /** A plain decimal without exponent or trailing zeros: 800, 0.625, 1234.5. */
  static String num(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return Double.toString(x);
    }
    String s = BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    return "-0".equals(s) ? "0" : s;
  }

  /**
   * A delay in ms for words: at most 2 decimals, trailing zeros dropped (1.5, 0.22, 3). A what-if's
   * check is made at the delay the link really added (the declared one plus the proxy's lateness,
   * e.g. 1.4999999 or 0.000221869 ms), whose full precision is noise to a reader.
   */
  static String delayMs(double ms) {
    if (Double.isNaN(ms) || Double.isInfinite(ms)) {
      return Double.toString(ms);
    }
    return num(BigDecimal.valueOf(ms).setScale(2, java.math.RoundingMode.HALF_UP).doubleValue());
  }

  /** A fraction as a percentage, rounded to 0.0001%: 0.9 -> "90". */
  static String percent(double fraction) {
    return num(Math.round(fraction * 1e6) / 1e4);
  }

  /** Four significant decimals for statistics in messages: 0.0123, 12.3457. */
  static String stat(double x) {
    return String.format(Locale.ROOT, "%.4f", x);
  }

  /** A p-value: fixed for readable values, scientific when tiny. */
  static String p(double x) {
    return x >= 1e-4
        ? String.format(Locale.ROOT, "%.4f", x)
        : String.format(Locale.ROOT, "%.2e", x);
  }
}
