package dev.ceiling.experiment;

import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A round's planned cell measured as a sweep of its own: drain the backlog the previous cell left,
 * then the A/B's one-cell sweep (warm-up, window, scrapes, assembly), journalled as {@code
 * cell-NNN.jsonl}, and the cell renumbered to its place in the round. Used where each cell changes
 * something a sweep holds fixed: the delay sweep's link delay, the defaults round's identities.
 *
 * <p>The drain is this class's, against the backlog read once before the first cell: each one-cell
 * sweep reads its own baseline when it starts, which here is the drained state, so its own drain
 * ends at once and the wait that counts is recorded in the cell.
 */
final class OneCellSweep {
  private final MetricsScraper scraper;
  private final SweepRunner runner;
  private final SweepProgress progress;
  private final RigDescriptor rig;
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
   * A stop request ended a cell that is several one-cell sweeps (a point ramp's steps) between two
   * of them: the cell is not recorded, and the round ends as interrupted, as it does between two
   * cells.
   */
  static final class CellStopped extends Exception {
    private static final long serialVersionUID = 1L;

    CellStopped(String message) {
      super(message);
    }
  }

  /**
   * @param journals the directory of the one-cell sweeps' journals
   * @throws MetricsException when the baseline backlog cannot be read
   */
  OneCellSweep(
      MetricsScraper scraper,
      SweepRunner runner,
      SweepProgress progress,
      RigDescriptor rig,
      Path journals)
      throws MetricsException {
    this.scraper = scraper;
    this.runner = runner;
    this.progress = progress;
    this.rig = rig;
    this.journals = journals;
    // A relay without metrics has no backlog to read: its one-cell sweep drains client-side.
    this.baseline =
        rig.clientSideEvidence()
            ? null
            : Backlog.read(rig, scraper.scrape(URI.create(rig.metricsUrl())));
  }

  /**
   * Waits, at most {@code timeout}, until the backlog is back at the one read before the first
   * cell: every accepted event's audit entry completed, nothing in flight.
   *
   * @throws MetricsException when the backlog cannot be read
   */
  DrainWait.Result drain(java.time.Duration timeout) throws MetricsException {
    return baseline == null ? DrainWait.none() : DrainWait.waitFor(scraper, rig, baseline, timeout);
  }

  /** The journal of the cell at {@code sequence} in {@code journals}. */
  static Path journal(Path journals, int sequence) {
    return journals.resolve(String.format(Locale.ROOT, "cell-%03d.jsonl", sequence));
  }

  /**
   * Measures the cell at {@code sequence}, {@code repeat} of the round.
   *
   * @param identity the one-cell sweep's identity (one rate, one repeat)
   * @param options how the cell is measured; its journal is replaced by the cell's own
   * @param what the cell in words, for messages ("at 2.5 ms", "at 40 identities")
   * @throws CellFailed when the cell could not be measured (the message says what failed)
   */
  Cell measure(
      ExperimentIdentity identity, SweepOptions options, int sequence, int repeat, String what)
      throws CellFailed {
    return measure(identity, options, sequence, repeat, what, journal(journals, sequence));
  }

  /**
   * As {@link #measure(ExperimentIdentity, SweepOptions, int, int, String)}, journalled to {@code
   * journal} (a second cell at the same place of the plan, such as a delay sweep's latency cell).
   */
  Cell measure(
      ExperimentIdentity identity,
      SweepOptions options,
      int sequence,
      int repeat,
      String what,
      Path journal)
      throws CellFailed {
    try {
      DrainWait.Result drained = drain(options.drainTimeout());
      if (drained.timeout() != null) {
        progress.warning(
            String.format(
                Locale.ROOT,
                "backlog did not drain within %.0f s; cell %d starts on it and is excluded"
                    + " (DRAIN_TIMEOUT)",
                options.drainTimeout().toMillis() / 1000.0,
                sequence));
      }
      SweepRunner.Outcome run =
          runner.run(rig, identity, options.withJournal(journal).withResume(false));
      if (run.failure() != null || run.half().cells().size() != 1) {
        throw new CellFailed(
            "cell "
                + sequence
                + " "
                + what
                + " was not measured: "
                + (run.failure() == null ? run.half().incompleteReason() : run.failure()),
            run.failure());
      }
      return run.half().cells().get(0).toBuilder()
          .sequence(sequence)
          .repeat(repeat)
          .drainWaitS(drained.waitedS())
          .drainTimeout(drained.timeout())
          .build();
    } catch (MetricsException | IOException | ReportFormatException e) {
      throw new CellFailed("cell " + sequence + " " + what + ": " + e, e);
    }
  }
}
