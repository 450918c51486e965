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
 * @param sourceAddresses distinct loopback source addresses the generator's connections were bound
 *     to (M: the relay saw M clients), >= 1, or null when the OS chose (every connection from one
 *     address on loopback) or the document predates the setting
 */
public record MeasurementSettings(
    double warmupS,
    double graceS,
    double sendLagBoundMs,
    Integer identities,
    Integer sourceAddresses) {

  /** Settings whose number of identities was not recorded. */
  public MeasurementSettings(double warmupS, double graceS, double sendLagBoundMs) {
    this(warmupS, graceS, sendLagBoundMs, null, null);
  }

  /** Settings with the OS choosing the source address. */
  public MeasurementSettings(
      double warmupS, double graceS, double sendLagBoundMs, Integer identities) {
    this(warmupS, graceS, sendLagBoundMs, identities, null);
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
    if (sourceAddresses != null && sourceAddresses < 1) {
      checks.add("measurement.source_addresses must be >= 1 or null, got " + sourceAddresses);
    }
    checks.orThrow();
  }
}
