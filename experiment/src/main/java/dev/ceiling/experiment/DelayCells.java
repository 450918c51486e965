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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

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
    this.progress = progress;
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
    return measure(planned, oneCell, latencyCell, null);
  }

  /**
   * As {@link #measure(DelaySweepPlan.Cell, ExperimentIdentity, ExperimentIdentity)}; with {@code
   * point} (the plan's point ramp) the cell is a ramp at its delay by the point ramp's rule, each
   * step a one-cell sweep of {@code oneCell} at the step's offer, then the point ramp's pause; the
   * link's counters and the audit count are read around the whole ramp and its pause.
   */
  DelaySweepAnalysis.Measured measure(
      DelaySweepPlan.Cell planned,
      ExperimentIdentity oneCell,
      ExperimentIdentity latencyCell,
      DelaySweepPlan.PointRamp point)
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

  /** The rest of {@link #measure} for a cell that is a ramp at its delay. */
  private DelaySweepAnalysis.Measured pointRamp(
      DelaySweepPlan.Cell planned,
      ExperimentIdentity oneCell,
      DelaySweepPlan.PointRamp point,
      String what,
      DelaySweepAnalysis.LatencyMeasured latency,
      LinkCounters linkBefore,
      Double countBefore)
      throws OneCellSweep.CellFailed, MetricsException, IOException {
    CeilingRamp.Rule rule = point.rule();
    List<CeilingRamp.Step> steps = new ArrayList<>();
    List<Cell> stepCells = new ArrayList<>();
    Double okTrue = 0.0;
    for (OptionalDouble next = rule.next(steps); next.isPresent(); next = rule.next(steps)) {
      double offer = next.getAsDouble();
      Cell c =
          cells.measure(
              oneCell.withRates(List.of(offer)),
              options,
              planned.sequence(),
              planned.repeat(),
              String.format(
                  Locale.ROOT, "%s (ramp step %d at %.0f/s)", what, steps.size() + 1, offer),
              stepJournal(planned.sequence(), steps.size()));
      stepCells.add(c);
      steps.add(RampMeasure.step(c));
      Double answers = DelaySweepAnalysis.okTrueAnswers(c);
      okTrue = okTrue == null || answers == null ? null : okTrue + answers;
      progress.warning(
          String.format(
              Locale.ROOT,
              "cell %d %s, ramp step %d at %.0f/s: %s",
              planned.sequence(),
              what,
              steps.size(),
              offer,
              rule.read(steps, steps.size() - 1).why()));
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
    CeilingRamp ramp = CeilingRamp.of(rule, steps);
    return new DelaySweepAnalysis.Measured(
        planned,
        stepCells.get(DelaySweepAnalysis.ceilingStep(ramp)),
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
