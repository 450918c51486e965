package dev.ceiling.core.model;

/**
 * How each cell of an experiment was measured, beyond its rate and window: part of the identity,
 * because two halves measured with a different warm-up, grace period or send-lag bound measured
 * different things (a longer warm-up fills the queue further; a longer grace counts more late
 * answers into the latencies; a looser bound keeps cells a tighter one would exclude).
 *
 * @param warmupS load offered before each window at the cell's rate, seconds, >= 0
 * @param graceS how long answers are awaited after the last send, seconds, > 0 (the generator's
 *     grace period; the sweep's "publish timeout" was this)
 * @param sendLagBoundMs the generator self-check's send-lag p99 bound, milliseconds, > 0
 */
public record MeasurementSettings(double warmupS, double graceS, double sendLagBoundMs) {
  public MeasurementSettings {
    new Checks()
        .nonNegativeFinite("measurement.warmup_s", warmupS)
        .positiveFinite("measurement.grace_s", graceS)
        .positiveFinite("measurement.send_lag_bound_ms", sendLagBoundMs)
        .orThrow();
  }
}
