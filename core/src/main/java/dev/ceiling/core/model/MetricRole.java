package dev.ceiling.core.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a scraped series means to the harness. A relay profile maps each role to a series of its own
 * (name and label matchers); cells carry deltas keyed by {@link #key()} so the verdict never needs
 * a relay's metric names.
 */
public enum MetricRole {
  /** Audit entries completed (the audit-log histogram's {@code _count}). Counter. */
  AUDIT_LOG_COUNT("audit_log_count", Kind.COUNTER),
  /** Seconds the audit worker spent writing (the histogram's {@code _sum}). Counter. */
  AUDIT_LOG_SUM_SECONDS("audit_log_sum_seconds", Kind.COUNTER),
  /**
   * Seconds the audit workers spent on writes outside waits for a lease another writer held,
   * divided by the number of workers, so its rate over a window is the worker pool's busy fraction
   * (1 when every worker writes all the time). Counter. Unlike {@link #AUDIT_LOG_SUM_SECONDS} it
   * does not count a worker blocked on a lock as busy: with a lock binding, the workers wait, they
   * do not work.
   */
  AUDIT_POOL_BUSY_SECONDS("audit_pool_busy_seconds", Kind.COUNTER),
  /** Audit writes that failed. Counter. */
  AUDIT_WRITE_ERRORS("audit_write_errors", Kind.COUNTER),
  /** Enqueues that failed: the worker is gone. Counter. */
  AUDIT_ENQUEUE_ERRORS("audit_enqueue_errors", Kind.COUNTER),
  /** Admission rejections for quota. Counter. */
  ADMISSION_REJECTIONS_QUOTA("admission_rejections_quota", Kind.COUNTER),
  /** Admission rejections because the limiter was unavailable. Counter. */
  ADMISSION_REJECTIONS_UNAVAILABLE("admission_rejections_unavailable", Kind.COUNTER),
  /** Entries waiting in the audit queue. Gauge. */
  AUDIT_QUEUE_DEPTH("audit_queue_depth", Kind.GAUGE),
  /** Rows in the audit log table. Gauge. */
  AUDIT_ROWS("audit_rows", Kind.GAUGE),
  /** Events the relay accepted (OK true), if it exposes such a counter. Counter. */
  EVENTS_ACCEPTED("events_accepted", Kind.COUNTER);

  /** Whether deltas or levels are meaningful. */
  public enum Kind {
    COUNTER,
    GAUGE
  }

  private final String key;
  private final Kind kind;

  MetricRole(String key, Kind kind) {
    this.key = key;
    this.kind = kind;
  }

  /** The snake_case key used in JSON (profiles and cells). */
  @JsonValue
  public String key() {
    return key;
  }

  public Kind kind() {
    return kind;
  }

  public static Optional<MetricRole> fromKey(String key) {
    return Arrays.stream(values()).filter(r -> r.key.equals(key)).findFirst();
  }
}
