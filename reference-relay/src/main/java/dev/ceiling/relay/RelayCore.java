package dev.ceiling.relay;

/** State shared by every connection of one relay. Thread-safe (each part is). */
final class RelayCore {
  final ReferenceRelayConfig config;
  final RelayMetrics metrics;
  final AdmissionLimiter limiter;
  final EventStore store;
  final AuditLog audit;
  final FaultDice faults;

  RelayCore(
      ReferenceRelayConfig config,
      RelayMetrics metrics,
      AdmissionLimiter limiter,
      EventStore store,
      AuditLog audit,
      FaultDice faults) {
    this.config = config;
    this.metrics = metrics;
    this.limiter = limiter;
    this.store = store;
    this.audit = audit;
    this.faults = faults;
  }
}
