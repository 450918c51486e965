package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;

/**
 * One repeat of one point of a delay sweep's latency slope: the OK latency of one cell measured at
 * an offer well below the ceiling, with {@code addedDelayMs} of extra round-trip delay on the swept
 * link. Unlike {@link DelayPoint} (a ceiling, modelled through its reciprocal) the latency itself
 * is what grows by k d, so it is fitted as it is.
 *
 * @param addedDelayMs the round-trip delay the link really added to each exchange, ms, finite and
 *     &gt;= 0
 * @param repeat the repeat's index at this delay, &gt;= 0 (a delay and a repeat name one point)
 * @param okLatencyMs the cell's OK latency (its median, from the intended slot), ms, finite and
 *     &gt;= 0
 */
public record LatencyPoint(double addedDelayMs, int repeat, double okLatencyMs) {
  public LatencyPoint {
    new Checks()
        .nonNegativeFinite("added_delay_ms", addedDelayMs)
        .nonNegative("repeat", repeat)
        .nonNegativeFinite("ok_latency_ms", okLatencyMs)
        .orThrow();
  }
}
