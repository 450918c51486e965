package dev.ceiling.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * When the cell ran, for how long, and the state of the generator and the machine around it: the
 * facts that decide whether its figures can be trusted, not the figures themselves.
 *
 * @param startedAt when the generator's clock started
 * @param durationRequestedS the schedule's length in seconds, > 0
 * @param durationElapsedS wall time from clock start to the last send or deadline, seconds
 * @param generatorBound true when the generator itself could not keep the schedule
 * @param generatorBoundReason why, or null when not bound
 * @param headroom the generator's measured capacity over the offered rate (>= 1.5 required for
 *     evidence), or null if unknown
 * @param drainWaitS seconds waited before the cell for the relay's backlog to drain
 * @param loadPerCpuBefore 1-minute load average / CPUs before the cell, or null if unreadable
 * @param loadPerCpuAfter the same after the cell
 * @param scrapeStartS how long the metrics scrape at the window's start took, seconds, or null when
 *     the relay was not scraped (no metrics, or a file written before it was recorded)
 * @param scrapeEndS the same for the scrape at the window's end; a slow scrape shifts the
 *     relay-side window away from the generator's
 * @param scrapeWindowS seconds between the two scrapes' completions, the span the relay's counter
 *     deltas are divided by, or null when not scraped (or a file written before it was recorded).
 *     The relay rendered each scrape somewhere inside it, so the span its counters cover is at
 *     least this less the end scrape's duration: a reading over it can be low by that much
 * @param wakeFloorP99Ms the machine's wake floor before the clock (p99 of how late the generator's
 *     own wait returned, ms; the self-check's send-lag bound is at least twice it), the largest
 *     over the cell's generator processes, or null when not measured (a file written before it was
 *     recorded)
 * @param drainTimeout the drain before this cell ran out of time (this cell inherited a backlog),
 *     or null when it finished or none was needed
 * @param links each upstream link's health during the cell, in the profile's order: empty for a
 *     relay with no proxied link, null when not recorded (a file written before it was, or a cell
 *     assembled without the relay's proxies); left out of the JSON when null
 */
public record CellEnvironment(
    Instant startedAt,
    double durationRequestedS,
    double durationElapsedS,
    boolean generatorBound,
    String generatorBoundReason,
    Double headroom,
    double drainWaitS,
    Double loadPerCpuBefore,
    Double loadPerCpuAfter,
    Double scrapeStartS,
    Double scrapeEndS,
    Double scrapeWindowS,
    Double wakeFloorP99Ms,
    DrainTimeout drainTimeout,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<LinkHealth> links) {

  /** The environment without link readings (not recorded). */
  public CellEnvironment(
      Instant startedAt,
      double durationRequestedS,
      double durationElapsedS,
      boolean generatorBound,
      String generatorBoundReason,
      Double headroom,
      double drainWaitS,
      Double loadPerCpuBefore,
      Double loadPerCpuAfter,
      Double scrapeStartS,
      Double scrapeEndS,
      Double scrapeWindowS,
      Double wakeFloorP99Ms,
      DrainTimeout drainTimeout) {
    this(
        startedAt,
        durationRequestedS,
        durationElapsedS,
        generatorBound,
        generatorBoundReason,
        headroom,
        drainWaitS,
        loadPerCpuBefore,
        loadPerCpuAfter,
        scrapeStartS,
        scrapeEndS,
        scrapeWindowS,
        wakeFloorP99Ms,
        drainTimeout,
        null);
  }

  public CellEnvironment {
    links = links == null ? null : List.copyOf(links);
    Objects.requireNonNull(startedAt, "started_at must not be null");
    Checks checks =
        new Checks()
            .positiveFinite("duration_requested_s", durationRequestedS)
            .nonNegativeFinite("duration_elapsed_s", durationElapsedS);
    if (generatorBound != (generatorBoundReason != null)) {
      checks.add(
          "generator_bound_reason must be set exactly when generator_bound is true, got bound="
              + generatorBound
              + " reason="
              + generatorBoundReason);
    }
    checks
        .nonNegativeOrNull("headroom", headroom)
        .nonNegativeFinite("drain_wait_s", drainWaitS)
        .nonNegativeOrNull("load_per_cpu_before", loadPerCpuBefore)
        .nonNegativeOrNull("load_per_cpu_after", loadPerCpuAfter)
        .nonNegativeOrNull("scrape_start_s", scrapeStartS)
        .nonNegativeOrNull("scrape_end_s", scrapeEndS)
        .nonNegativeOrNull("scrape_window_s", scrapeWindowS)
        .nonNegativeOrNull("wake_floor_p99_ms", wakeFloorP99Ms)
        .orThrow();
  }

  /** The links that failed during the cell, in order; empty when none did or none was watched. */
  public List<LinkHealth> failedLinks() {
    return links == null ? List.of() : links.stream().filter(LinkHealth::failed).toList();
  }
}
