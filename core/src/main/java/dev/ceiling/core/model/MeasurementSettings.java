package dev.ceiling.core.model;

/**
 * How each cell of an experiment was measured, beyond its rate and window: part of the identity,
 * because two halves measured with a different warm-up, grace period, send-lag bound or number of
 * signing identities measured different things (a longer warm-up fills the queue further; a longer
 * grace counts more late answers into the latencies; a looser bound keeps cells a tighter one would
 * exclude; more identities spread the offer over more admission budgets).
 *
 * @param warmupS load offered before each window at the cell's rate, seconds, >= 0
 * @param graceS how long answers are awaited after the last send, seconds, > 0 (the generator's
 *     grace period; the sweep's "publish timeout" was this)
 * @param sendLagBoundMs the generator self-check's send-lag p99 bound, milliseconds, > 0
 * @param identities signing keys per community the offer is spread over, >= 1, or null in a
 *     document written before they were recorded (unknown, not a count)
 */
public record MeasurementSettings(
    double warmupS, double graceS, double sendLagBoundMs, Integer identities) {

  /** Settings whose number of identities was not recorded. */
  public MeasurementSettings(double warmupS, double graceS, double sendLagBoundMs) {
    this(warmupS, graceS, sendLagBoundMs, null);
  }

  public MeasurementSettings {
    Checks checks =
        new Checks()
            .nonNegativeFinite("measurement.warmup_s", warmupS)
            .positiveFinite("measurement.grace_s", graceS)
            .positiveFinite("measurement.send_lag_bound_ms", sendLagBoundMs);
    if (identities != null && identities < 1) {
      checks.add("measurement.identities must be >= 1 or null, got " + identities);
    }
    checks.orThrow();
  }
}
