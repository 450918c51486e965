package dev.ceiling.core.model;

import java.util.Objects;

/**
 * One cell's three latency distributions, each with its raw histogram so anything can be
 * recomputed.
 *
 * @param sendLag intended slot to on-the-wire
 * @param service on-the-wire to OK
 * @param scheduled intended slot to OK (the primary latency)
 */
public record CellLatencies(
    LatencySummary sendLag, LatencySummary service, LatencySummary scheduled) {
  public CellLatencies {
    Objects.requireNonNull(sendLag, "send_lag must not be null");
    Objects.requireNonNull(service, "service must not be null");
    Objects.requireNonNull(scheduled, "scheduled must not be null");
  }
}
