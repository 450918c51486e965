package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.prom.Reading;
import dev.ceiling.prom.Selector;
import dev.ceiling.rig.proxy.DelayProxy;
import dev.ceiling.rig.proxy.LinkCounters;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Measures one cell of a delay sweep: set the link's delay, then the A/B's own one-cell sweep
 * (drain, warm-up, window, scrapes, assembly), then drain its backlog at its delay, with the link's
 * counters and the relay's audit count read on both sides of it all, each time with nothing in
 * flight.
 *
 * <p>The drain and the one-cell sweep are {@link OneCellSweep}'s.
 */
final class DelayCells {
  private final MetricsScraper scraper;
  private final RigDescriptor rig;
  private final DelayLink link;
  private final SweepOptions options;
  private final OneCellSweep cells;
  private final Path journals;

  /**
   * @param journals the directory of the one-cell sweeps' journals
   * @throws MetricsException when the baseline backlog cannot be read
   */
  DelayCells(
      MetricsScraper scraper,
      SweepProgress progress,
      RigDescriptor rig,
      DelayLink link,
      SweepOptions options,
      Path journals,
      Map<String, DelayProxy> links)
      throws MetricsException {
    this.scraper = scraper;
    this.rig = rig;
    this.link = link;
    this.options = options;
    this.journals = journals;
    SweepRunner runner = new SweepRunner(scraper, progress);
    runner.watchLinks(links);
    this.cells = new OneCellSweep(scraper, runner, progress, rig, journals);
  }

  /**
   * Measures {@code planned} as the one-cell sweep {@code oneCell} (its offer, its window, one
   * repeat).
   *
   * @throws OneCellSweep.CellFailed when the cell could not be measured (the message says what
   *     failed)
   */
  DelaySweepAnalysis.Measured measure(DelaySweepPlan.Cell planned, ExperimentIdentity oneCell)
      throws OneCellSweep.CellFailed {
    return measure(planned, oneCell, null);
  }

  /**
   * As {@link #measure(DelaySweepPlan.Cell, ExperimentIdentity)}, with the planned cell's latency
   * cell first when {@code latencyCell} (the one-cell sweep at the plan's latency offer) is given:
   * at the same delay, the relay idle before it (the previous cell drained), so its OK latency is
   * the link's round trips and the relay's own work, not a backlog left by a saturating cell.
   */
  DelaySweepAnalysis.Measured measure(
      DelaySweepPlan.Cell planned, ExperimentIdentity oneCell, ExperimentIdentity latencyCell)
      throws OneCellSweep.CellFailed {
    String what = "at " + planned.addedDelayMs() + " ms";
    try {
      link.setDelay(Duration.ofNanos(Math.round(planned.addedDelayMs() * 1e6)));
      DelaySweepAnalysis.LatencyMeasured latency = null;
      if (latencyCell != null) {
        LinkCounters before = link.counters();
        Cell l =
            cells.measure(
                latencyCell,
                options,
                planned.sequence(),
                planned.repeat(),
                what + " (latency cell)",
                latencyJournal(planned.sequence()));
        cells.drain(options.drainTimeout());
        latency = new DelaySweepAnalysis.LatencyMeasured(l, link.counters().minus(before));
      }
      LinkCounters linkBefore = link.counters();
      Double countBefore = auditCount();
      Cell cell = cells.measure(oneCell, options, planned.sequence(), planned.repeat(), what);
      // Both counts are read with nothing in flight: drained here, at this cell's delay, every
      // entry the cell accepted has made its turns and been counted, and none straddles a
      // reading (the previous cell ended the same way; the next cell's drain finds nothing).
      // Read while the worker was still busy, the relay's count (a scrape) lagged the proxy's,
      // and on a loaded machine a cell's turns per entry came out low (5.77 against 6.00).
      cells.drain(options.drainTimeout());
      LinkCounters turns = link.counters().minus(linkBefore);
      Double countAfter = auditCount();
      Double events = countBefore == null || countAfter == null ? null : countAfter - countBefore;
      return new DelaySweepAnalysis.Measured(planned, cell, turns, events, latency);
    } catch (MetricsException | IOException e) {
      throw new OneCellSweep.CellFailed("cell " + planned.sequence() + " " + what + ": " + e, e);
    }
  }

  /** The journal of the latency cell at {@code sequence}, beside the cell's own. */
  private Path latencyJournal(int sequence) {
    Path own = OneCellSweep.journal(journals, sequence);
    return own.resolveSibling(own.getFileName().toString().replace(".jsonl", "-latency.jsonl"));
  }

  /** The relay's audit completions so far, or null when its profile maps no such counter. */
  private Double auditCount() throws MetricsException {
    String selector = rig.metricMapping().get(MetricRole.AUDIT_LOG_COUNT.key());
    if (selector == null) {
      return null;
    }
    Reading r = scraper.scrape(URI.create(rig.metricsUrl())).read(Selector.parse(selector));
    return r.exposed() && Double.isFinite(r.value()) ? r.value() : null;
  }
}
