package dev.ceiling.experiment;

import dev.ceiling.core.json.ReportFormatException;
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

/**
 * Measures one cell of a delay sweep: set the link's delay, drain the backlog the previous cell
 * left (at the new delay), then the A/B's own one-cell sweep (warm-up, window, scrapes, assembly),
 * with the link's counters and the relay's audit count read on both sides of it all.
 *
 * <p>The drain is this class's, against the backlog read once before the first cell: each one-cell
 * sweep reads its own baseline when it starts, which here is the drained state, so its own drain
 * ends at once and the wait that counts is recorded in the cell.
 */
final class DelayCells {
  private final MetricsScraper scraper;
  private final SweepProgress progress;
  private final RigDescriptor rig;
  private final DelayProxy proxy;
  private final ExperimentIdentity oneCell;
  private final SweepOptions options;
  private final Path journals;
  private final Backlog baseline;

  /** One cell could not be measured: the relay, its metrics or the journal failed. */
  static final class CellFailed extends Exception {
    private static final long serialVersionUID = 1L;

    CellFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * @param oneCell the identity of each cell's one-cell sweep: the plan's rate, its duration, one
   *     repeat
   * @param journals the directory of the one-cell sweeps' journals
   * @throws MetricsException when the baseline backlog cannot be read
   */
  DelayCells(
      MetricsScraper scraper,
      SweepProgress progress,
      RigDescriptor rig,
      DelayProxy proxy,
      ExperimentIdentity oneCell,
      SweepOptions options,
      Path journals)
      throws MetricsException {
    this.scraper = scraper;
    this.progress = progress;
    this.rig = rig;
    this.proxy = proxy;
    this.oneCell = oneCell;
    this.options = options;
    this.journals = journals;
    this.baseline = Backlog.read(rig, scraper.scrape(URI.create(rig.metricsUrl())));
  }

  /**
   * Measures {@code planned}.
   *
   * @throws CellFailed when the cell could not be measured (the message says what failed)
   */
  SensitivityAnalysis.Measured measure(SensitivityPlan.Cell planned) throws CellFailed {
    proxy.setDelay(Duration.ofNanos(Math.round(planned.addedDelayMs() * 1e6)));
    try {
      LinkCounters linkBefore = proxy.counters();
      Double countBefore = auditCount();
      DrainWait.Result drained = DrainWait.waitFor(scraper, rig, baseline, options.drainTimeout());
      if (drained.timeout() != null) {
        progress.warning(
            String.format(
                Locale.ROOT,
                "backlog did not drain within %.0f s; cell %d starts on it and is excluded"
                    + " (DRAIN_TIMEOUT)",
                options.drainTimeout().toMillis() / 1000.0,
                planned.sequence()));
      }
      Path journal =
          journals.resolve(String.format(Locale.ROOT, "cell-%03d.jsonl", planned.sequence()));
      SweepRunner.Outcome run =
          new SweepRunner(scraper, progress)
              .run(rig, oneCell, options.withJournal(journal).withResume(false));
      if (run.failure() != null || run.half().cells().size() != 1) {
        throw new CellFailed(
            "cell "
                + planned.sequence()
                + " at "
                + planned.addedDelayMs()
                + " ms was not measured: "
                + (run.failure() == null ? run.half().incompleteReason() : run.failure()),
            run.failure());
      }
      Cell cell =
          run.half().cells().get(0).toBuilder()
              .sequence(planned.sequence())
              .repeat(planned.repeat())
              .drainWaitS(drained.waitedS())
              .drainTimeout(drained.timeout())
              .build();
      LinkCounters link = proxy.counters().minus(linkBefore);
      Double countAfter = auditCount();
      Double events = countBefore == null || countAfter == null ? null : countAfter - countBefore;
      return new SensitivityAnalysis.Measured(planned, cell, link, events);
    } catch (MetricsException | IOException | ReportFormatException e) {
      throw new CellFailed(
          "cell " + planned.sequence() + " at " + planned.addedDelayMs() + " ms: " + e, e);
    }
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
