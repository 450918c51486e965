package dev.ceiling.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Argument checks that collect every broken rule and then fail once, so a record's constructor or a
 * command's options report all their problems at once rather than the first. Each message states
 * the rule and the offending value ({@code rate must be a finite number > 0, got -3.0}).
 *
 * <p>Use one instance per validation, then {@link #orThrow}; not thread-safe.
 */
public final class Checks {
  private final List<String> problems = new ArrayList<>();

  /** Non-null and not blank. */
  public Checks notBlank(String field, String value) {
    if (value == null || value.isBlank()) {
      problems.add(field + " must be non-blank, got " + quote(value));
    }
    return this;
  }

  /** Finite and > 0. */
  public Checks positiveFinite(String field, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      problems.add(field + " must be a finite number > 0, got " + value);
    }
    return this;
  }

  /** Finite and >= 0. */
  public Checks nonNegativeFinite(String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      problems.add(field + " must be a finite number >= 0, got " + value);
    }
    return this;
  }

  /** A nullable measurement: {@code null} means "not applicable"; otherwise finite and >= 0. */
  public Checks nonNegativeOrNull(String field, Double value) {
    return value == null ? this : nonNegativeFinite(field, value);
  }

  /** A nullable measurement that may be negative (a delta) but never NaN or infinite. */
  public Checks finiteOrNull(String field, Double value) {
    if (value != null && (value.isNaN() || value.isInfinite())) {
      problems.add(field + " must be finite or null, got " + value);
    }
    return this;
  }

  /** {@code >= 0}. */
  public Checks nonNegative(String field, long value) {
    if (value < 0) {
      problems.add(field + " must be >= 0, got " + value);
    }
    return this;
  }

  /** A nullable count: {@code null} means "not recorded"; otherwise {@code >= 0}. */
  public Checks nonNegativeOrNull(String field, Long value) {
    return value == null ? this : nonNegative(field, value);
  }

  /** In {@code [min, max]}; {@code unit} (may be empty) follows the range in the message. */
  public Checks between(String field, double value, double min, double max, String unit) {
    if (!(value >= min && value <= max)) {
      problems.add(
          String.format(
              Locale.ROOT,
              "%s must be in [%s, %s]%s, got %s",
              field,
              n(min),
              n(max),
              unit.isEmpty() ? "" : " " + unit,
              n(value)));
    }
    return this;
  }

  /** In {@code (0, max]}. */
  public Checks positiveAtMost(String field, double value, double max, String unit) {
    if (!(value > 0 && value <= max)) {
      problems.add(
          String.format(
              Locale.ROOT,
              "%s must be > 0 and at most %s %s, got %s",
              field,
              n(max),
              unit,
              n(value)));
    }
    return this;
  }

  /** Adds {@code problem} unless {@code holds}: a rule no other method here states. */
  public Checks require(boolean holds, String problem) {
    if (!holds) {
      problems.add(problem);
    }
    return this;
  }

  /** Adds a problem found elsewhere. */
  public Checks add(String problem) {
    problems.add(problem);
    return this;
  }

  /** True while no problem has been found; for a rule that only makes sense on valid parts. */
  public boolean ok() {
    return problems.isEmpty();
  }

  /** Every problem so far, in the order found. */
  public List<String> problems() {
    return List.copyOf(problems);
  }

  /**
   * Returns when there is no problem; otherwise throws one {@link IllegalArgumentException} whose
   * message is every problem, joined by "; ".
   */
  public void orThrow() {
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }

  private static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }

  private static String n(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }
}
