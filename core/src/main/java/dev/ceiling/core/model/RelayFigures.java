package dev.ceiling.core.model;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the relay's metrics said about one cell: scraped counter deltas and the audit path's figures
 * derived from them. Null means "not applicable" (an arm with no audit path or no queue) or "not
 * exposed", never zero.
 *
 * @param counterDeltas scraped counter deltas keyed by {@link MetricRole#key()} (or a profile's
 *     extra name); a null value means the series is not exposed
 * @param counterResets names of counters that went down during the cell (a reset, never a negative
 *     delta)
 * @param auditCompleted audit entries completed during the cell, or null without an audit path
 * @param auditCompletedPerS auditCompleted / elapsed window, or null
 * @param auditServiceMeanMs mean audit write time in ms (sum delta / count delta), or null
 * @param auditBusyFraction audit seconds spent / wall seconds of the cell window, or null
 * @param poolBusyFraction the audit worker pool's busy fraction over the window, lease waits not
 *     counted ({@link MetricRole#AUDIT_POOL_BUSY_SECONDS}), or null when not exposed or no queue
 * @param outstandingDelta change in (accepted - audit completed) over the cell, i.e. backlog
 *     growth; null for an arm with no queue
 * @param queueDepthBefore audit queue depth scraped before the cell, or null
 * @param queueDepthAfter audit queue depth scraped after the cell, or null
 * @param controlCheck the profile's control check around a cell of the arm without the code path,
 *     or null when the profile declares none or the cell belongs to the other arm
 */
public record RelayFigures(
    Map<String, Double> counterDeltas,
    List<String> counterResets,
    Long auditCompleted,
    Double auditCompletedPerS,
    Double auditServiceMeanMs,
    Double auditBusyFraction,
    Double poolBusyFraction,
    Long outstandingDelta,
    Double queueDepthBefore,
    Double queueDepthAfter,
    ControlCheckReading controlCheck) {

  public RelayFigures {
    Objects.requireNonNull(counterDeltas, "counter_deltas must not be null (use {})");
    Checks checks = new Checks();
    TreeMap<String, Double> deltas = new TreeMap<>(counterDeltas);
    deltas.forEach((k, v) -> checks.finiteOrNull("counter_deltas." + k, v));
    counterDeltas = Collections.unmodifiableMap(deltas);
    counterResets = List.copyOf(Objects.requireNonNull(counterResets, "counter_resets"));
    checks
        .nonNegativeOrNull("audit_completed", auditCompleted)
        .nonNegativeOrNull("audit_completed_per_s", auditCompletedPerS)
        .nonNegativeOrNull("audit_service_mean_ms", auditServiceMeanMs)
        .nonNegativeOrNull("audit_busy_fraction", auditBusyFraction)
        .nonNegativeOrNull("pool_busy_fraction", poolBusyFraction)
        .nonNegativeOrNull("queue_depth_before", queueDepthBefore)
        .nonNegativeOrNull("queue_depth_after", queueDepthAfter)
        .orThrow();
  }
}
