package dev.ceiling.experiment;

import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.DrainTimeout;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.experiment.internal.LoadPerCpu;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.generator.WindowListener;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.prom.Snapshot;
import dev.ceiling.rig.ControlCheck;
import dev.ceiling.rig.proxy.DelayProxy;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Measures one arm: for each planned cell, wait for the relay's backlog to drain, then offer the
 * cell's load with a warm-up, scrape at the start and the end of the measurement window, and turn
 * the pair into a {@link Cell} that is journalled before the next cell starts.
 *
 * <p>A relay without metrics ({@link RigDescriptor#clientSideEvidence()}) is never scraped. Its
 * backlog cannot be read, so the drain is done by the generator instead: it keeps each cell's
 * connections open after the last send until every OK has arrived (or the drain timeout), and the
 * next cell starts only once the relay's OKs have stopped arriving; that wait is the next cell's
 * {@code drain_wait_s}. No queue reading means no steady-state or busy reading either.
 *
 * <p>Not thread-safe; {@link #interrupt()} may be called from any thread (a shutdown hook) and
 * makes the sweep stop after the running cell, returning what was measured.
 */
public final class SweepRunner implements ArmSweep {
  /** How long a control check may take before its run counts as not finished. */
  /**
   * Paid before every cell: 250 waits of 1 ms, a p99 from the three latest (the second-long default
   * cost the test suite a tenth of its time).
   */
  static final Duration WAKE_FLOOR_PROBE = Duration.ofMillis(250);

  private final MetricsScraper scraper;
  private final SweepProgress progress;
  private final StopSignal stop = new StopSignal();
  private LinkWatches links;

  public SweepRunner(MetricsScraper scraper, SweepProgress progress) {
    this.scraper = scraper;
    this.progress = progress;
  }

  /**
   * The scraper every round reads the relay's metrics with: a relay that does not answer within
   * seconds is a failed scrape, and a body over 16 MiB is not a metrics page.
   */
  public static MetricsScraper defaultScraper() {
    return new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(5), 16 * 1024 * 1024);
  }

  @Override
  public void watchLinks(Map<String, DelayProxy> proxies) {
    this.links = new LinkWatches(proxies);
  }

  /** Asks the sweep to stop after the cell that is running. */
  @Override
  public void interrupt() {
    stop.request();
  }

  /** A sweep's result; {@code failure} is the infrastructure problem that stopped it, or null. */
  public record Outcome(HalfRun half, Exception failure) {}

  /**
   * Runs the arm's sweep. Never loses a measured cell: on an infrastructure failure or an interrupt
   * it returns an incomplete half-run holding every finished cell (which the journal also holds).
   *
   * @throws IOException when the journal cannot be written or read
   * @throws ReportFormatException when a resume journal is corrupt or belongs to another identity
   */
  @Override
  public Outcome run(RigDescriptor rig, ExperimentIdentity identity, SweepOptions options)
      throws IOException, ReportFormatException {
    return run(rig, identity, options, CellPlan.plan(identity, options.twoCommunity()));
  }

  /**
   * Runs {@code plan} (a design's own cells, e.g. the split round's pairs) as the arm's sweep.
   *
   * @throws IOException when the journal cannot be written or read
   * @throws ReportFormatException when a resume journal is corrupt or belongs to another identity
   */
  Outcome run(
      RigDescriptor rig, ExperimentIdentity identity, SweepOptions options, List<PlannedCell> plan)
      throws IOException, ReportFormatException {
    String arm = rig.arm();
    boolean client = rig.clientSideEvidence();
    boolean hasQueue = !client && !arm.equals(identity.controlArm());
    List<Cell> cells = new ArrayList<>();
    Journal journal = openJournal(arm, identity, options, cells);
    Set<Integer> done = new HashSet<>();
    cells.forEach(c -> done.add(c.sequence()));
    Instant started = Instant.now();
    // A sweep's first cell starts on no earlier cell's wait: the previous sweep's was its own.
    lastGraceS = 0.0;
    lastUnanswered = null;
    RoundEnd end;
    try (journal) {
      progress.sweepStarted(arm, plan.size(), done.size());
      Backlog baseline =
          hasQueue ? Backlog.read(rig, scraper.scrape(URI.create(rig.metricsUrl()))) : null;
      boolean checked = rig.controlCheck() != null && arm.equals(identity.controlArm());
      end =
          Rounds.cells(
              plan,
              c -> done.contains(c.sequence()),
              stop,
              planned -> {
                ControlCheck.Result checkBefore = checked ? ControlChecks.run(rig) : null;
                Cell cell =
                    client
                        ? measureClientSide(
                            rig,
                            identity,
                            options,
                            planned,
                            nextToMeasure(plan, plan.indexOf(planned), done),
                            lastGraceS,
                            lastUnanswered)
                        : measure(rig, identity, options, planned, hasQueue, baseline);
                if (checked) {
                  cell = ControlChecks.withReadings(cell, checkBefore, ControlChecks.run(rig));
                }
                lastUnanswered =
                    DrainWait.unanswered(cell.unacknowledged(), options.drainTimeout());
                // Kept before it is journalled: a journal that cannot be written (a full disk)
                // must not cost the cell that was just measured; the half-run still holds it.
                cells.add(cell);
                journal.append(cell);
                progress.cellFinished(cell, cells.size(), plan.size());
              });
    } catch (MetricsException e) {
      // The first scrape, before any cell, failed.
      end = Rounds.failedBy(e);
    } catch (IOException e) {
      // Only the journal writes in this block (an append or its close).
      IOException failure = new IOException(Journal.appendFailure(options.journal(), e), e);
      end = RoundEnd.failed(Redaction.redact(failure.getMessage()), failure);
    }
    Exception failure = end instanceof RoundEnd.Failed f ? f.cause() : null;
    return new Outcome(halfRun(rig, identity, plan, cells, started, end), failure);
  }

  /**
   * A new journal, or the resumed one, whose cells (each sequence once) are added to {@code cells}.
   *
   * @throws ReportFormatException when the resumed journal belongs to another identity or arm
   */
  private Journal openJournal(
      String arm, ExperimentIdentity identity, SweepOptions options, List<Cell> cells)
      throws IOException, ReportFormatException {
    if (!options.resume()) {
      return Journal.create(options.journal(), identity, arm);
    }
    Journal.Contents previous = Journal.read(options.journal());
    List<String> mismatch = Differences.differences(previous.identity(), identity);
    if (!previous.arm().equals(arm)) {
      mismatch.add("arm: journal '" + previous.arm() + "', this sweep '" + arm + "'");
    }
    if (!mismatch.isEmpty()) {
      throw new ReportFormatException(
          options.journal().toString(),
          "$",
          "journal belongs to a different experiment: " + String.join("; ", mismatch),
          null);
    }
    Set<Integer> seen = new HashSet<>();
    for (Cell c : previous.cells()) {
      if (seen.add(c.sequence())) {
        cells.add(c);
      }
    }
    previous.tornMessage(options.journal()).ifPresent(progress::warning);
    return Journal.reopen(options.journal(), previous);
  }

  /** The half-run of the finished cells, in sequence order; incomplete says why. */
  private static HalfRun halfRun(
      RigDescriptor rig,
      ExperimentIdentity identity,
      List<PlannedCell> plan,
      List<Cell> cells,
      Instant started,
      RoundEnd end) {
    cells.sort(java.util.Comparator.comparingInt(Cell::sequence));
    boolean complete = cells.size() == plan.size();
    // The journal's words since the A/B's first half-runs, kept as they were: readers and tests
    // read them. Anything but a failure that left cells unmeasured is a stop request.
    String reason =
        complete
            ? null
            : end.failed()
                ? "stopped by an infrastructure failure: " + end.reason()
                : "interrupted after " + cells.size() + " of " + plan.size() + " cells";
    // A half-run is shown and shared (reports, HTML): it keeps no credentials from the URLs.
    return new HalfRun(
        SchemaVersion.CURRENT,
        identity,
        rig.arm(),
        Redaction.redact(rig),
        started,
        Instant.now(),
        complete,
        reason,
        cells);
  }

  /** The first cell after {@code plan[i]} still to measure, or null when none is. */
  private static PlannedCell nextToMeasure(List<PlannedCell> plan, int i, Set<Integer> done) {
    for (int j = i + 1; j < plan.size(); j++) {
      if (!done.contains(plan.get(j).sequence())) {
        return plan.get(j);
      }
    }
    return null;
  }

  /** The last generator run's wait for outstanding OKs after its last send, seconds. */
  private double lastGraceS;

  /** The last cell's OKs still unanswered at the drain timeout, or null: the next cell's wait. */
  private DrainTimeout lastUnanswered;

  private Cell measureClientSide(
      RigDescriptor rig,
      ExperimentIdentity identity,
      SweepOptions options,
      PlannedCell planned,
      PlannedCell next,
      double drainWaitS,
      DrainTimeout drainTimeout)
      throws GeneratorException {
    Double loadBefore = LoadPerCpu.now();
    // The grace period is the drain: the generator waits for every outstanding OK, up to the drain
    // timeout, so the relay has stopped answering this cell before the next one starts.
    Duration grace =
        options.drainTimeout().compareTo(options.grace()) > 0
            ? options.drainTimeout()
            : options.grace();
    GeneratorConfig.Builder cfg = generatorConfig(rig, identity, options, planned, grace);
    LinkWatches.Running watching = links == null ? null : links.start();
    GeneratorReport report = offer(cfg.build(), options);
    List<dev.ceiling.core.model.LinkHealth> health = watching == null ? null : watching.end();
    lastGraceS = report.graceWaitedS();
    if (report.aggregate().unacknowledged() > 0) {
      progress.warning(
          unansweredWarning(
              planned.sequence(),
              report.aggregate().unacknowledged(),
              report.graceWaitedS(),
              next == null ? null : next.sequence()));
    }
    Double loadAfter = LoadPerCpu.now();
    return CellAssembler.assemble(
            planned,
            rig.arm(),
            false,
            report,
            CellAssembler.none(identity.durationS()),
            drainWaitS,
            loadBefore,
            loadAfter)
        .toBuilder()
        .drainTimeout(drainTimeout)
        .links(health)
        .build();
  }

  /**
   * The warning after a client-side cell whose drain ran out with {@code unanswered} events owed:
   * it names the cell it excludes ({@code next}, the next cell of this arm's sweep, which starts on
   * that backlog), or, when {@code next} is null, says that nothing is excluded, as what runs next
   * runs on a fresh relay.
   */
  static String unansweredWarning(int sequence, long unanswered, double waitedS, Integer next) {
    return String.format(
        java.util.Locale.ROOT,
        "cell %d: %d events still had no OK after waiting %.0f s: the relay dropped them or"
            + " is still working; %s",
        sequence,
        unanswered,
        waitedS,
        next == null
            ? "this arm's sweep has no further cell, so nothing is excluded for it (a next arm or"
                + " round starts on a fresh relay)"
            : "cell " + next + " starts on that backlog and is excluded (DRAIN_TIMEOUT)");
  }

  private Cell measure(
      RigDescriptor rig,
      ExperimentIdentity identity,
      SweepOptions options,
      PlannedCell planned,
      boolean hasQueue,
      Backlog baseline)
      throws MetricsException, GeneratorException {
    URI metrics = URI.create(rig.metricsUrl());
    DrainWait.Result drained =
        hasQueue ? drain(rig, baseline, options, planned.sequence()) : DrainWait.none();
    Double loadBefore = LoadPerCpu.now();
    GeneratorConfig.Builder cfg = generatorConfig(rig, identity, options, planned, options.grace());
    // The two scrapes bracket the measurement window exactly: the generator calls back at the
    // window's start (after the warm-up) and end, on a thread that does not send.
    AtomicReference<Snapshot> before = new AtomicReference<>();
    AtomicReference<Snapshot> after = new AtomicReference<>();
    AtomicReference<MetricsException> scrapeError = new AtomicReference<>();
    // How long each scrape took: the snapshot is taken somewhere inside it, so a slow scrape moves
    // the relay-side window away from the generator's by up to its duration.
    AtomicReference<Double> beforeS = new AtomicReference<>();
    AtomicReference<Double> afterS = new AtomicReference<>();
    cfg.windowListener(
        new WindowListener() {
          @Override
          public void windowStarted(Instant at) {
            beforeS.set(timedScrapeInto(metrics, before, scrapeError));
          }

          @Override
          public void windowEnded(Instant at) {
            afterS.set(timedScrapeInto(metrics, after, scrapeError));
          }
        });
    LinkWatches.Running watching = links == null ? null : links.start();
    GeneratorReport report = offer(cfg.build(), options);
    List<dev.ceiling.core.model.LinkHealth> health = watching == null ? null : watching.end();
    lastGraceS = report.graceWaitedS();
    if (scrapeError.get() != null) {
      throw scrapeError.get();
    }
    if (before.get() == null || after.get() == null) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "the generator did not report its measurement window (before="
              + before.get()
              + ", after="
              + after.get()
              + ")");
    }
    Double loadAfter = LoadPerCpu.now();
    CellAssembler.Scraped scraped = CellAssembler.scrape(rig, before.get(), after.get());
    return CellAssembler.assemble(
            planned, rig.arm(), hasQueue, report, scraped, drained.waitedS(), loadBefore, loadAfter)
        .toBuilder()
        .scrapeS(beforeS.get(), afterS.get(), scraped.windowS())
        .drainTimeout(drained.timeout())
        .links(health)
        .build();
  }

  /**
   * Offers the cell's load: in this process, or from {@link SweepOptions#generators()} child
   * processes whose segment reports are merged exactly (the window listener is then called by this
   * process at the window's wall-clock edges, where every child's window opens and closes).
   */
  private GeneratorReport offer(GeneratorConfig cfg, SweepOptions options)
      throws GeneratorException {
    if (options.generators() == 1) {
      return Generator.run(cfg, progress::generatorLine);
    }
    return new GeneratorProcesses(options.generators(), progress::generatorLine).run(cfg);
  }

  private static GeneratorConfig.Builder generatorConfig(
      RigDescriptor rig,
      ExperimentIdentity identity,
      SweepOptions options,
      PlannedCell planned,
      Duration grace)
      throws GeneratorException {
    GeneratorConfig.Builder cfg =
        GeneratorConfig.builder()
            .duration(Duration.ofNanos((long) (identity.durationS() * 1e9)))
            .warmup(options.warmup())
            .sendLagBound(options.sendLagBound())
            .wakeFloorProbe(WAKE_FLOOR_PROBE)
            .connectTimeout(options.connectTimeout())
            .publishTimeout(grace)
            .sourceAddresses(options.sourceAddresses());
    List<Target> targets = rig.targets();
    if (planned.twoCommunity()) {
      if (targets.size() < 2) {
        throw new GeneratorException(
            GeneratorException.Kind.CONFIG,
            "two-community cells need two targets in the rig descriptor, got " + targets.size());
      }
      for (Target t : targets.subList(0, 2)) {
        cfg.load(
            new TargetLoad(
                t,
                planned.offeredPerS() / 2,
                options.connectionsPerTarget(),
                options.identities()));
      }
    } else {
      cfg.load(
          new TargetLoad(
              targets.get(0),
              planned.offeredPerS(),
              options.connectionsPerTarget(),
              options.identities()));
    }
    return cfg;
  }

  /** Scrapes into {@code into} and returns the seconds it took. */
  private double timedScrapeInto(
      URI metrics, AtomicReference<Snapshot> into, AtomicReference<MetricsException> error) {
    long start = System.nanoTime();
    scrapeInto(metrics, into, error);
    return (System.nanoTime() - start) / 1e9;
  }

  private void scrapeInto(
      URI metrics, AtomicReference<Snapshot> into, AtomicReference<MetricsException> error) {
    try {
      into.set(scraper.scrape(metrics));
    } catch (MetricsException e) {
      error.compareAndSet(null, e);
    }
  }

  /** Waits for the backlog to drain, and says so when this cell will start on it. */
  private DrainWait.Result drain(
      RigDescriptor rig, Backlog baseline, SweepOptions options, int sequence)
      throws MetricsException {
    DrainWait.Result drained = DrainWait.waitFor(scraper, rig, baseline, options.drainTimeout());
    if (drained.timeout() != null) {
      progress.warning(
          String.format(
              java.util.Locale.ROOT,
              "backlog did not drain within %.0f s (queue depth %s, baseline %s); cell %d starts"
                  + " on it and is excluded (DRAIN_TIMEOUT)",
              options.drainTimeout().toMillis() / 1000.0,
              drained.timeout().queueDepth(),
              drained.timeout().baselineQueueDepth(),
              sequence));
    }
    return drained;
  }
}
