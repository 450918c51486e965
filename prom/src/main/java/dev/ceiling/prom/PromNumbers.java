package dev.ceiling.prom;

import java.util.Locale;

/**
 * Number tokens of the text format: sample values as Go's ParseFloat reads them, and timestamps.
 */
final class PromNumbers {
  private PromNumbers() {}

  /**
   * Parses a sample value as Go's {@code strconv.ParseFloat} (which Prometheus uses) would, minus
   * hexadecimal floats: decimal with optional exponent, {@code [+-]Inf}/{@code Infinity} and {@code
   * NaN} in any case. A decimal outside the double range is an error there, so it is here.
   *
   * @return the value, or {@code null} when the token is not a valid float
   */
  static Double parseFloat(String t) {
    int n = t.length();
    if (n == 0) {
      return null;
    }
    int i = 0;
    char sign = t.charAt(0);
    if (sign == '+' || sign == '-') {
      i++;
    }
    String rest = t.substring(i).toLowerCase(Locale.ROOT);
    if (rest.equals("inf") || rest.equals("infinity")) {
      return sign == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (rest.equals("nan")) {
      return i == 0 ? Double.NaN : null;
    }
    int digits = 0;
    while (i < n && isDigit(t.charAt(i))) {
      i++;
      digits++;
    }
    if (i < n && t.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(t.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return null;
    }
    if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
      i++;
      if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
        i++;
      }
      int expDigits = 0;
      while (i < n && isDigit(t.charAt(i))) {
        i++;
        expDigits++;
      }
      if (expDigits == 0) {
        return null;
      }
    }
    if (i != n) {
      return null;
    }
    double v = Double.parseDouble(t);
    return Double.isInfinite(v) ? null : v;
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static Long parseTimestamp(String t) {
    int i = 0;
    if (t.startsWith("+") || t.startsWith("-")) {
      i = 1;
    }
    if (i == t.length()) {
      return null;
    }
    for (int k = i; k < t.length(); k++) {
      if (!isDigit(t.charAt(k))) {
        return null;
      }
    }
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException e) {
      return null; // out of the int64 range
    }
  }
}
