package dev.ceiling.relay;

/** State shared by every connection of one relay. Thread-safe (each part is). */
final class RelayCore {
  final ReferenceRelayConfig config;
  final RelayMetrics metrics;
  final AdmissionLimits limits;
  final EventStore store;
  final AuditLog audit;
  final FaultDice faults;

  RelayCore(
      ReferenceRelayConfig config,
      RelayMetrics metrics,
      AdmissionLimits limits,
      EventStore store,
      AuditLog audit,
      FaultDice faults) {
    this.config = config;
    this.metrics = metrics;
    this.limits = limits;
    this.store = store;
    this.audit = audit;
    this.faults = faults;
  }
}
