package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;

/**
 * One repeat of one point of a delay sweep: the ceiling measured with {@code addedDelayMs} of extra
 * round-trip latency on the swept link. The sensitivity fit models its reciprocal, the per-event
 * service time {@link #msPerEvent()}.
 *
 * @param addedDelayMs the added round-trip delay on the link, ms, finite and &gt;= 0
 * @param repeat the repeat's index at this delay, &gt;= 0 (a delay and a repeat name one point)
 * @param ceilingPerS the measured ceiling, events/s, finite and &gt; 0
 * @param weight the point's relative weight in the least-squares fit, proportional to 1 / variance
 *     of its {@link #msPerEvent()}, finite and &gt; 0; or null for "unweighted" (every point 1).
 *     Only ratios matter: the residual variance is estimated from the data.
 */
public record DelayPoint(double addedDelayMs, int repeat, double ceilingPerS, Double weight) {
  public DelayPoint {
    Checks checks =
        new Checks()
            .nonNegativeFinite("added_delay_ms", addedDelayMs)
            .nonNegative("repeat", repeat)
            .positiveFinite("ceiling_per_s", ceilingPerS);
    if (weight != null) {
      checks.positiveFinite("weight", weight);
    }
    checks.orThrow();
  }

  /** An unweighted point. */
  public DelayPoint(double addedDelayMs, int repeat, double ceilingPerS) {
    this(addedDelayMs, repeat, ceilingPerS, null);
  }

  /** The per-event service time the ceiling implies, 1000 / ceiling: ms per event. */
  public double msPerEvent() {
    return 1000.0 / ceilingPerS;
  }

  /** The weight the fit uses: the given one, or 1 when unweighted. */
  double fitWeight() {
    return weight == null ? 1.0 : weight;
  }
}
