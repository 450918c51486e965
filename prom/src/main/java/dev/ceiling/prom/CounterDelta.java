package dev.ceiling.prom;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * How much a counter selector moved between two snapshots, compared series by series so that a
 * reset of one series cannot hide behind growth of another.
 *
 * <ul>
 *   <li>{@link Kind#INCREASE}: every matching series is present on both sides (or absent and
 *       positive-controlled, see below) and none went down; {@link #delta()} is the summed
 *       increase, {@code >= 0}.
 *   <li>{@link Kind#RESET}: some series went down (the process restarted or the counter is not a
 *       counter). No delta is reported: a negative delta would be a lie, and so would a guess.
 *   <li>{@link Kind#NOT_EXPOSED}: a series is missing on one or both sides and the caller did not
 *       declare the selector positive-controlled. Callers must handle it; it is not zero.
 *   <li>{@link Kind#NOT_FINITE}: a matching series is NaN or infinite; no delta exists.
 * </ul>
 *
 * <p><b>Positive-controlled</b>: the caller knows the series appears as soon as it moves (a
 * labelled counter created on first increment, such as {@code rejections_total{reason="quota"}}),
 * so absence means "still 0". Only then does an absent series read as 0: absent on both sides is an
 * increase of 0, appearing is an increase from 0, and vanishing after a non-zero value is a reset.
 *
 * <p>Immutable and thread-safe.
 */
public final class CounterDelta {

  /** The outcome. */
  public enum Kind {
    INCREASE,
    RESET,
    NOT_EXPOSED,
    NOT_FINITE
  }

  private final Selector selector;
  private final boolean positiveControlled;
  private final Kind kind;
  private final double delta;
  private final String reason;

  private CounterDelta(
      Selector selector, boolean positiveControlled, Kind kind, double delta, String reason) {
    this.selector = selector;
    this.positiveControlled = positiveControlled;
    this.kind = kind;
    this.delta = delta;
    this.reason = reason;
  }

  /**
   * Compares the series {@code selector} matches in {@code before} and in {@code after}.
   *
   * @param positiveControlled whether an absent series may be read as 0 (see the class comment)
   * @throws IllegalArgumentException when {@code after} was taken before {@code before}
   */
  public static CounterDelta between(
      Snapshot before, Snapshot after, Selector selector, boolean positiveControlled) {
    Objects.requireNonNull(before, "before must not be null");
    Objects.requireNonNull(after, "after must not be null");
    Objects.requireNonNull(selector, "selector must not be null");
    if (after.takenAt().isBefore(before.takenAt())) {
      throw new IllegalArgumentException(
          "after must not be taken before before, got before="
              + before.takenAt()
              + " after="
              + after.takenAt());
    }
    Map<String, Double> b = bySeries(before, selector);
    Map<String, Double> a = bySeries(after, selector);
    Set<String> all = new LinkedHashSet<>(b.keySet());
    all.addAll(a.keySet());

    if (all.isEmpty()) {
      return positiveControlled
          ? new CounterDelta(
              selector,
              true,
              Kind.INCREASE,
              0.0,
              "absent before and after, read as 0" + " (positive-controlled)")
          : new CounterDelta(selector, false, Kind.NOT_EXPOSED, 0.0, "absent before and after");
    }
    if (!positiveControlled) {
      for (String series : all) {
        if (!b.containsKey(series) || !a.containsKey(series)) {
          return new CounterDelta(
              selector,
              false,
              Kind.NOT_EXPOSED,
              0.0,
              series
                  + " absent "
                  + (b.containsKey(series) ? "after" : "before")
                  + " (not declared positive-controlled, so absence is not 0)");
        }
      }
    }
    for (String series : all) {
      String bad = nonFinite(series, "before", b);
      if (bad == null) {
        bad = nonFinite(series, "after", a);
      }
      if (bad != null) {
        return new CounterDelta(selector, positiveControlled, Kind.NOT_FINITE, 0.0, bad);
      }
    }
    double sum = 0;
    for (String series : all) {
      double was = b.getOrDefault(series, 0.0);
      double now = a.getOrDefault(series, 0.0);
      if (now < was) {
        return new CounterDelta(
            selector,
            positiveControlled,
            Kind.RESET,
            0.0,
            series
                + " went down from "
                + was
                + " to "
                + now
                + (a.containsKey(series) ? "" : " (absent after, read as 0)"));
      }
      sum += now - was;
    }
    return new CounterDelta(
        selector, positiveControlled, Kind.INCREASE, sum, all.size() + " series");
  }

  private static String nonFinite(String series, String side, Map<String, Double> values) {
    Double v = values.get(series);
    return v != null && !Double.isFinite(v) ? series + " is " + v + " " + side : null;
  }

  private static Map<String, Double> bySeries(Snapshot snapshot, Selector selector) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (Sample s : snapshot.matching(selector)) {
      out.put(s.series(), s.value());
    }
    return out;
  }

  public Selector selector() {
    return selector;
  }

  public boolean positiveControlled() {
    return positiveControlled;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The summed increase, {@code >= 0}.
   *
   * @throws IllegalStateException unless {@link #kind()} is {@link Kind#INCREASE}
   */
  public double delta() {
    if (kind != Kind.INCREASE) {
      throw new IllegalStateException("no delta for " + this);
    }
    return delta;
  }

  /** The increase, or empty for any other kind. */
  public OptionalDouble deltaIfIncrease() {
    return kind == Kind.INCREASE ? OptionalDouble.of(delta) : OptionalDouble.empty();
  }

  /**
   * Why the kind is what it is, in one line, e.g. {@code foo_total{a="1"} went down from 5.0 to
   * 2.0}.
   */
  public String reason() {
    return reason;
  }

  /** One line: {@code selector: INCREASE +12.0 (2 series)} or {@code selector: RESET (...)}. */
  @Override
  public String toString() {
    return kind == Kind.INCREASE
        ? selector + ": INCREASE +" + delta + " (" + reason + ")"
        : selector + ": " + kind + " (" + reason + ")";
  }
}
