package dev.ceiling.experiment;

import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.Reading;
import dev.ceiling.prom.Selector;
import dev.ceiling.prom.Snapshot;

/**
 * The relay's outstanding work as one scrape of its metrics shows it.
 *
 * @param queueDepth the audit queue's depth, or null when not exposed
 * @param acceptedMinusCompleted accepted events minus audit completions, or null when either is not
 *     exposed
 */
record Backlog(Double queueDepth, Double acceptedMinusCompleted) {
  /** Reads the backlog from a scrape through the rig's metric mapping. */
  static Backlog read(RigDescriptor rig, Snapshot s) throws MetricsException {
    Double depth = gauge(rig, s, MetricRole.AUDIT_QUEUE_DEPTH);
    Double accepted = gauge(rig, s, MetricRole.EVENTS_ACCEPTED);
    Double completed = gauge(rig, s, MetricRole.AUDIT_LOG_COUNT);
    return new Backlog(depth, accepted == null || completed == null ? null : accepted - completed);
  }

  private static Double gauge(RigDescriptor rig, Snapshot s, MetricRole role)
      throws MetricsException {
    String selector = rig.metricMapping().get(role.key());
    if (selector == null) {
      return null;
    }
    Reading r = s.read(Selector.parse(selector));
    return r.exposed() ? r.value() : null;
  }

  /**
   * True when this backlog is back to {@code baseline}: the queue at its resting depth and
   * completions caught up with accepted events. A figure either side does not expose cannot hold
   * the drain up.
   */
  boolean drainedTo(Backlog baseline) {
    boolean depthOk =
        queueDepth == null || baseline.queueDepth() == null || queueDepth <= baseline.queueDepth();
    boolean countsOk =
        acceptedMinusCompleted == null
            || baseline.acceptedMinusCompleted() == null
            || acceptedMinusCompleted <= baseline.acceptedMinusCompleted();
    return depthOk && countsOk;
  }
}
