package dev.ceiling.relay;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * The reference relay's Prometheus metrics (prefix {@code refrelay_}), in their own registry so two
 * relays in one JVM (tests) never share counters. Exposed names (Prometheus text 0.0.4):
 *
 * <ul>
 *   <li>{@code refrelay_audit_log_seconds} histogram ({@code _bucket}, {@code _count}, {@code
 *       _sum}): service time of one audit entry (six exchanges with their delays)
 *   <li>{@code refrelay_audit_write_errors_total}, {@code refrelay_audit_enqueue_errors_total}
 *   <li>{@code refrelay_audit_queue_depth}, {@code refrelay_audit_queue_high_water} gauges
 *   <li>{@code refrelay_audit_log_rows} gauge: rows in audit_log, read from the database
 *   <li>{@code
 *       refrelay_admission_rejections_total{transport="websocket",reason="quota"|"quota_ip"|"unavailable"}}:
 *       quota is the per-pubkey limiter, quota_ip the per-IP one
 *   <li>{@code refrelay_events_accepted_total{community}}, {@code
 *       refrelay_events_rejected_total{reason}} (reason: invalid, duplicate, rate-limited, error)
 *   <li>{@code refrelay_ok_dropped_total}, {@code refrelay_fault_closes_total}
 *   <li>{@code refrelay_audit_lock_wait_seconds{community}} histogram: time an entry's writer spent
 *       taking its lease beyond the take's injected delay (the round trip, and any time another
 *       writer held it); {@code refrelay_audit_lock_held_seconds{community}} histogram: from
 *       holding the lease to having given it back. Every served community from startup
 *   <li>{@code refrelay_audit_exchange_cost_seconds}, {@code
 *       refrelay_audit_predicted_ceiling_per_second} (one worker), {@code
 *       refrelay_audit_predicted_workers_ceiling_per_second} (all workers) and {@code
 *       refrelay_audit_predicted_lock_ceiling_per_second} (one lease; NaN without a lock) gauges
 *       from the calibration
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class RelayMetrics {
  /** Reasons of refrelay_events_rejected_total, all present from startup. */
  public static final List<String> REJECT_REASONS =
      List.of("invalid", "duplicate", "rate-limited", "error");

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  final Histogram auditLogSeconds;
  final Counter auditPoolBusySeconds;
  final Counter auditWriteErrors;
  final Counter auditEnqueueErrors;
  final Counter admissionRejections;
  final Counter eventsAccepted;
  final Counter eventsRejected;
  final Counter okDropped;
  final Counter faultCloses;
  final Gauge exchangeCostSeconds;
  final Gauge predictedCeilingPerSecond;
  final Gauge predictedWorkersCeilingPerSecond;
  final Gauge predictedLockCeilingPerSecond;
  final Histogram leaseWaitSeconds;
  final Histogram leaseHeldSeconds;

  RelayMetrics(
      List<String> communities,
      DoubleSupplier queueDepth,
      DoubleSupplier queueHighWater,
      DoubleSupplier auditRows) {
    auditLogSeconds =
        Histogram.builder()
            .name("refrelay_audit_log_seconds")
            .help("Service time of one audit entry: six sequential exchanges with their delays")
            .classicOnly()
            .classicUpperBounds(
                0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.02, 0.05, 0.1, 0.25, 1)
            .withoutExemplars()
            .register(registry);
    auditWriteErrors =
        Counter.builder()
            .name("refrelay_audit_write_errors_total")
            .help("Audit entries whose write failed (rolled back)")
            .register(registry);
    auditEnqueueErrors =
        Counter.builder()
            .name("refrelay_audit_enqueue_errors_total")
            .help("Accepted events that could not be enqueued (audit worker gone)")
            .register(registry);
    admissionRejections =
        Counter.builder()
            .name("refrelay_admission_rejections_total")
            .help("EVENTs refused by the admission limiter")
            .labelNames("transport", "reason")
            .register(registry);
    admissionRejections.labelValues("websocket", "quota");
    admissionRejections.labelValues("websocket", "quota_ip");
    admissionRejections.labelValues("websocket", "unavailable");
    eventsAccepted =
        Counter.builder()
            .name("refrelay_events_accepted_total")
            .help("EVENTs answered OK true (or whose OK was dropped by fault injection)")
            .labelNames("community")
            .register(registry);
    for (String c : communities) {
      eventsAccepted.labelValues(c);
    }
    eventsRejected =
        Counter.builder()
            .name("refrelay_events_rejected_total")
            .help("EVENTs answered OK false, by NIP-01 prefix")
            .labelNames("reason")
            .register(registry);
    for (String r : REJECT_REASONS) {
      eventsRejected.labelValues(r);
    }
    okDropped =
        Counter.builder()
            .name("refrelay_ok_dropped_total")
            .help("OK answers withheld by --fault-drop-ok-fraction")
            .register(registry);
    faultCloses =
        Counter.builder()
            .name("refrelay_fault_closes_total")
            .help("Connections closed by --fault-close-after")
            .register(registry);
    exchangeCostSeconds =
        Gauge.builder()
            .name("refrelay_audit_exchange_cost_seconds")
            .help("Calibrated cost of one audit exchange without injected delay")
            .register(registry);
    predictedCeilingPerSecond =
        Gauge.builder()
            .name("refrelay_audit_predicted_ceiling_per_second")
            .help("1 / (exchanges x (delay + exchange cost)): one audit worker's predicted ceiling")
            .register(registry);
    predictedWorkersCeilingPerSecond =
        Gauge.builder()
            .name("refrelay_audit_predicted_workers_ceiling_per_second")
            .help("workers / (exchanges x (delay + exchange cost)): all audit workers together")
            .register(registry);
    predictedLockCeilingPerSecond =
        Gauge.builder()
            .name("refrelay_audit_predicted_lock_ceiling_per_second")
            .help("1 / (held exchanges x (delay + exchange cost)): one lease; NaN without a lock")
            .register(registry);
    auditPoolBusySeconds =
        Counter.builder()
            .name("refrelay_audit_pool_busy_seconds_total")
            .help(
                "Audit worker seconds spent writing, waits for a lease another writer held left"
                    + " out, divided by the number of workers: its rate is the pool's busy"
                    + " fraction")
            .register(registry);
    leaseWaitSeconds =
        lockHistogram(
            "refrelay_audit_lock_wait_seconds",
            "Time taking an audit entry's lease beyond the take's injected delay",
            communities);
    leaseHeldSeconds =
        lockHistogram(
            "refrelay_audit_lock_held_seconds",
            "Time an audit entry's lease was held, from taking it to having given it back",
            communities);
    GaugeWithCallback.builder()
        .name("refrelay_audit_queue_depth")
        .help("Entries waiting in the audit queue")
        .callback(cb -> cb.call(queueDepth.getAsDouble()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("refrelay_audit_queue_high_water")
        .help("Largest audit queue depth seen since startup")
        .callback(cb -> cb.call(queueHighWater.getAsDouble()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("refrelay_audit_log_rows")
        .help("Rows in the audit_log table, read from the database")
        .callback(cb -> cb.call(auditRows.getAsDouble()))
        .register(registry);
  }

  private Histogram lockHistogram(String name, String help, List<String> communities) {
    Histogram h =
        Histogram.builder()
            .name(name)
            .help(help)
            .labelNames("community")
            .classicOnly()
            .classicUpperBounds(
                0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 10)
            .withoutExemplars()
            .register(registry);
    for (String c : communities) {
      h.labelValues(c);
    }
    return h;
  }

  /**
   * Exposes {@code delay}: its delayed exchanges as {@code refrelay_audit_exchanges_total}, their
   * summed lateness as {@code refrelay_audit_delay_lateness_seconds_total}, and its added delay as
   * {@code refrelay_audit_added_delay_seconds}.
   */
  void track(InjectedDelay delay) {
    CounterWithCallback.builder()
        .name("refrelay_audit_exchanges_total")
        .help(
            "Delayed audit exchanges: each statement a worker sends after the injected delay, a"
                + " re-ask of a taken lease included; per entry written, the round trips it made")
        .callback(cb -> cb.call((double) delay.exchanges()))
        .register(registry);
    CounterWithCallback.builder()
        .name("refrelay_audit_delay_lateness_seconds_total")
        .help(
            "Summed time each delayed audit exchange's delay ended after it was due (the"
                + " machine's wake-up latency beyond the sleep's spin margin)")
        .callback(cb -> cb.call(delay.latenessNanos() / 1e9))
        .register(registry);
    GaugeWithCallback.builder()
        .name("refrelay_audit_added_delay_seconds")
        .help(
            "Delay PUT /audit-exchange-delay added before each audit exchange, on top of"
                + " --audit-exchange-delay-ms; the predicted-ceiling gauges assume none")
        .callback(cb -> cb.call(delay.addedMillis() / 1000))
        .register(registry);
  }

  /** Sets the calibration's gauges. */
  void calibrated(Calibration c) {
    exchangeCostSeconds.set(c.exchangeCostSeconds());
    predictedCeilingPerSecond.set(c.predictedCeilingPerSecond());
    predictedWorkersCeilingPerSecond.set(c.predictedWorkersCeilingPerSecond());
    predictedLockCeilingPerSecond.set(c.predictedLockCeilingPerSecond().orElse(Double.NaN));
  }

  /** Content type of {@link #scrape()}. */
  public static String contentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  /** The current metrics in Prometheus text format 0.0.4. */
  public String scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
