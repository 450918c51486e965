package dev.ceiling.core.model;

/**
 * The drain before a cell that ran out of time: the relay still held the previous cell's backlog
 * when this cell started, so this cell inherited it and is not an independent draw.
 *
 * @param timeoutS the drain timeout that ran out, seconds, > 0
 * @param queueDepth the audit queue's depth when the wait gave up, or null when not exposed
 * @param baselineQueueDepth the resting depth the drain waited for, or null when not exposed
 * @param outstandingEvents events still owed when the wait gave up: audit completions behind
 *     accepted events beyond the resting level (a relay with metrics), or events still without an
 *     OK (a relay without metrics); null when neither could be read
 */
public record DrainTimeout(
    double timeoutS, Double queueDepth, Double baselineQueueDepth, Double outstandingEvents) {
  public DrainTimeout {
    new Checks()
        .positiveFinite("drain_timeout.timeout_s", timeoutS)
        .nonNegativeOrNull("drain_timeout.queue_depth", queueDepth)
        .nonNegativeOrNull("drain_timeout.baseline_queue_depth", baselineQueueDepth)
        .finiteOrNull("drain_timeout.outstanding_events", outstandingEvents)
        .orThrow();
  }
}
