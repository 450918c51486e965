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
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

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
  private final SweepProgress progress;
  private final BooleanSupplier stopped;

  /**
   * @param journals the directory of the one-cell sweeps' journals
   * @param stopped asked between a point ramp's steps (the sweep's stop request)
   * @throws MetricsException when the baseline backlog cannot be read
   */
  DelayCells(
      MetricsScraper scraper,
      SweepProgress progress,
      BooleanSupplier stopped,
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
    this.progress = progress;
    this.stopped = stopped;
    SweepRunner runner = new SweepRunner(scraper, progress);
    runner.watchLinks(links);
    this.cells = new OneCellSweep(scraper, runner, progress, rig, journals);
  }

  /**
   * Measures {@code planned} as the one-cell sweep {@code oneCell} (its offer, its window, one
   * repeat).
   *
   * <p>With {@code latencyCell} (the one-cell sweep at the plan's latency offer), the planned
   * cell's latency cell comes first: at the same delay, the relay idle before it (the previous cell
   * drained), so its OK latency is the link's round trips and the relay's own work, not a backlog
   * left by a saturating cell.
   *
   * <p>With {@code point} (the plan's point ramp) the cell is a ramp at its delay by the point
   * ramp's rule, each step a one-cell sweep of {@code oneCell} at the step's offer, then the point
   * ramp's pause; the link's counters and the audit count are read around the whole ramp and its
   * pause.
   *
   * @throws OneCellSweep.CellFailed when the cell could not be measured (the message says what
   *     failed)
   * @throws OneCellSweep.CellStopped when a stop request ended a point ramp between two steps
   */
  DelaySweepAnalysis.Measured measure(
      DelaySweepPlan.Cell planned,
      ExperimentIdentity oneCell,
      ExperimentIdentity latencyCell,
      DelaySweepPlan.PointRamp point)
      throws OneCellSweep.CellFailed, OneCellSweep.CellStopped {
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
      if (point != null) {
        return pointRamp(planned, oneCell, point, what, latency, linkBefore, countBefore);
      }
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

  /**
   * The rest of {@link #measure} for a cell that is a ramp at its delay: {@link RampMeasure}'s
   * loop, each step a one-cell sweep journalled beside the cell's own journal.
   *
   * @throws OneCellSweep.CellStopped when a stop request ended the ramp between two steps: the cell
   *     is not recorded, and a resume measures it again from its first step
   */
  private DelaySweepAnalysis.Measured pointRamp(
      DelaySweepPlan.Cell planned,
      ExperimentIdentity oneCell,
      DelaySweepPlan.PointRamp point,
      String what,
      DelaySweepAnalysis.LatencyMeasured latency,
      LinkCounters linkBefore,
      Double countBefore)
      throws OneCellSweep.CellFailed, OneCellSweep.CellStopped, MetricsException, IOException {
    CeilingRamp.Rule rule = point.rule();
    RampMeasure.Measured ramped =
        RampMeasure.steps(
            rule,
            oneCell,
            (identity, i) ->
                cells.measure(
                    identity,
                    options,
                    planned.sequence(),
                    planned.repeat(),
                    String.format(
                        Locale.ROOT,
                        "%s (ramp step %d at %.0f/s)",
                        what,
                        i + 1,
                        identity.ratesPerS().get(0)),
                    stepJournal(planned.sequence(), i)),
            stopped,
            String.format(Locale.ROOT, "cell %d %s, ", planned.sequence(), what),
            progress);
    if (ramped.stopped()) {
      String stoppedAt =
          "cell "
              + planned.sequence()
              + " "
              + what
              + " stopped after step "
              + ramped.cells().size()
              + " of its ramp; it is not recorded, and a resume measures it again";
      progress.warning(stoppedAt);
      throw new OneCellSweep.CellStopped(stoppedAt);
    }
    Double okTrue = 0.0;
    for (Cell c : ramped.cells()) {
      Double answers = DelaySweepAnalysis.okTrueAnswers(c);
      okTrue = okTrue == null || answers == null ? null : okTrue + answers;
    }
    cells.drain(options.drainTimeout());
    // The ramp's last step saturated or collapsed, so the relay holds a backlog the client cannot
    // see drain: the declared pause lets it settle before the counters are read and the next cell.
    try {
      Thread.sleep(Math.round(point.settleS() * 1000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OneCellSweep.CellFailed(
          "cell " + planned.sequence() + " " + what + ": interrupted in the pause after its ramp",
          e);
    }
    LinkCounters turns = link.counters().minus(linkBefore);
    Double countAfter = auditCount();
    Double events = countBefore == null || countAfter == null ? null : countAfter - countBefore;
    CeilingRamp ramp = ramped.ramp();
    return new DelaySweepAnalysis.Measured(
        planned,
        ramped.cells().get(DelaySweepAnalysis.ceilingStep(ramp)),
        turns,
        events,
        latency,
        new DelaySweepAnalysis.PointMeasured(ramp, okTrue));
  }

  /** The journal of step {@code step} of the ramp of the cell at {@code sequence}. */
  private Path stepJournal(int sequence, int step) {
    Path own = OneCellSweep.journal(journals, sequence);
    return own.resolveSibling(
        own.getFileName()
            .toString()
            .replace(".jsonl", String.format(Locale.ROOT, "-step-%d.jsonl", step + 1)));
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
