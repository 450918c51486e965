package dev.ceiling.core.model;

/** Argument checks whose messages state the rule and the offending value. */
public final class Checks {
  private Checks() {}

  public static String notBlank(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must be non-blank, got " + quote(value));
    }
    return value;
  }

  public static double positiveFinite(String field, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(field + " must be a finite number > 0, got " + value);
    }
    return value;
  }

  public static double nonNegativeFinite(String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(field + " must be a finite number >= 0, got " + value);
    }
    return value;
  }

  /** A nullable measurement: {@code null} means "not applicable"; otherwise finite and >= 0. */
  public static Double nonNegativeOrNull(String field, Double value) {
    if (value != null) {
      nonNegativeFinite(field, value);
    }
    return value;
  }

  /** A nullable measurement that may be negative (a delta) but never NaN or infinite. */
  public static Double finiteOrNull(String field, Double value) {
    if (value != null && (value.isNaN() || value.isInfinite())) {
      throw new IllegalArgumentException(field + " must be finite or null, got " + value);
    }
    return value;
  }

  public static long nonNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0, got " + value);
    }
    return value;
  }

  private static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }
}
