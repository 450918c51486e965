package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.verdict.AdmissionPlan;
import dev.ceiling.verdict.IdentitiesReport;
import dev.ceiling.verdict.IdentitiesRow;
import dev.ceiling.verdict.IdentitiesVerdict;
import dev.ceiling.verdict.LimiterWindowRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The defaults round ({@code ceiling experiment --design identities}): the ceiling at production
 * defaults. One relay at its profile's limiter settings (the stock ones: nothing raised), one
 * offered rate above its own ceiling, and the offer spread evenly over N signing keys for each N of
 * a grid (and over M source addresses, when given). Per N the verdict ({@link IdentitiesVerdict})
 * says which binds, each identity's admission budget or the relay's own ceiling, and from which N
 * on the limiter stops binding; the plan is written to {@code identities.json} before the first
 * cell.
 *
 * <pre>{@code
 * RoundResult<IdentitiesRoundReport> r = IdentitiesRound.builder()
 *     .profile(RelayProfile.builtIn("reference-defaults"))
 *     .identities(List.of(10, 100, 500))
 *     .outDir(Path.of("target", "identities"))
 *     .run();
 * }</pre>
 *
 * <p>An instance runs once; not thread-safe ({@link #interrupt()} may come from any thread).
 */
public final class IdentitiesRound {
  /** The file the round writes in its output directory. */
  public static final String REPORT_FILE = "identities.json";

  /** The offer when none is given: this multiple of the top of the relay's predicted range. */
  public static final double DEFAULT_RATE_MULTIPLE = 1.5;

  private final Builder o;
  private final MetricsScraper scraper = SweepRunner.defaultScraper();
  private final SweepRunner runner;
  private final StopSignal stop = new StopSignal();

  private IdentitiesRound(Builder o) {
    this.o = o;
    this.runner = new SweepRunner(scraper, o.progress);
    stop.running(runner::interrupt);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Stops the round after the running cell; what was measured is judged and written. */
  public void interrupt() {
    stop.request();
  }

  private RoundResult<IdentitiesRoundReport> runRound() throws ExperimentException {
    return Rounds.run(o, REPORT_FILE, "defaults round", runner, stop, this::measure);
  }

  /** The relay is up: the rate, the plan (written), the cells, the verdict (written). */
  private RoundResult<IdentitiesRoundReport> measure(RigDescriptor live, Path file) {
    Double ceiling = Predictions.of(live, Predictions.WORKERS_KEY);
    if (ceiling == null) {
      ceiling = Predictions.of(live, Predictions.WORKER_CEILING_KEY);
    }
    double rate;
    if (o.rate != null) {
      rate = o.rate;
    } else {
      Double hot = Predictions.of(live, Predictions.WORKER_CEILING_HOT_KEY);
      Double top = hot != null && ceiling != null ? Math.max(hot, ceiling) : ceiling;
      if (top == null) {
        // The relay predicts no ceiling: the ramp measures it first, before the plan is written.
        CeilingRamp ramp;
        try {
          ramp =
              RampMeasure.forRound(
                  scraper, o.profile, live, o.sweepOptions, o.outDir, o.progress, stop::requested);
        } catch (MetricsException | OneCellSweep.CellFailed e) {
          return RoundResult.failed(Outcome.INFRASTRUCTURE, "the ceiling ramp failed: " + e);
        }
        if (stop.requested()) {
          return RoundResult.failed(
              Outcome.NOT_ESTABLISHED,
              RoundEnd.interrupted().reason() + " during the ceiling ramp");
        }
        if (ramp.ceilingPerS() == null) {
          return RoundResult.failed(
              Outcome.NOT_ESTABLISHED, RampMeasure.noCeiling(ramp, "--rates with one rate"));
        }
        ceiling = ramp.ceilingPerS();
        top = ceiling;
      }
      rate = new AutoRates.Range(ceiling, top).rateFor(o.rateMultiple);
    }
    List<Integer> grid = o.identities.stream().sorted().distinct().toList();
    List<IdentitiesRoundReport.PlannedIdentitiesCell> plan = plan(grid);
    MeasurementSettings base = o.sweepOptions.measurement();
    Report report =
        new Report(
            file,
            IdentitiesRoundReport.planned()
                .profile(o.profile.name())
                .rig(Redaction.redact(live))
                .offeredPerS(rate)
                .identities(grid)
                .repeats(o.repeats)
                .durationS(o.duration.toNanos() / 1e9)
                .orderSeed(o.seed)
                // Each cell carries its own N: the round's settings name none.
                .measurement(
                    new MeasurementSettings(
                        base.warmupS(),
                        base.graceS(),
                        base.sendLagBoundMs(),
                        null,
                        base.sourceAddresses()))
                .plan(plan)
                .predictedCeilingPerS(ceiling)
                .admission(admission(rate, ceiling))
                .build());
    List<IdentitiesVerdict.Measured> measured = new ArrayList<>();
    RoundEnd end;
    try {
      report.write(measured, RoundEnd.running());
      OneCellSweep cells =
          new OneCellSweep(
              scraper,
              runner,
              o.progress,
              live,
              Files.createDirectories(o.outDir.resolve("journals")));
      end =
          Rounds.cells(
              plan,
              c -> false,
              stop,
              c -> {
                measured.add(cell(cells, live, rate, c));
                report.write(measured, RoundEnd.running());
              });
    } catch (MetricsException e) {
      // The first scrape, before any cell, failed.
      end = Rounds.failedBy(e);
    } catch (IOException e) {
      return RoundResult.failed(Outcome.INFRASTRUCTURE, "cannot write " + file + ": " + e);
    }
    try {
      IdentitiesRoundReport r = report.write(measured, end);
      return new RoundResult<>(
          r, file, outcome(r, end), end.reason() == null ? List.of() : List.of(end.reason()));
    } catch (IOException e) {
      return RoundResult.failed(Outcome.INFRASTRUCTURE, "cannot write " + file + ": " + e);
    }
  }

  /**
   * Each repeat runs every N once, in ascending order or shuffled with the seed.
   *
   * <p>The one design that shuffles within each repeat ({@link CellOrder.Shuffle#WITHIN_REPEAT}, a
   * randomised block), where the A/B and the delay sweep shuffle the whole plan because their fits
   * want the cells spread over the run's time at random: this round's verdict reads each N against
   * the others, so a round stopped after k repeats has measured every N k times, and drift during
   * the round falls on every N alike within a repeat.
   */
  private List<IdentitiesRoundReport.PlannedIdentitiesCell> plan(List<Integer> grid) {
    List<IdentitiesRoundReport.PlannedIdentitiesCell> out = new ArrayList<>();
    for (CellOrder.Slot<Integer> s :
        CellOrder.of(grid, o.repeats, CellOrder.Shuffle.WITHIN_REPEAT, o.seed)) {
      out.add(new IdentitiesRoundReport.PlannedIdentitiesCell(out.size(), s.level(), s.repeat()));
    }
    return List.copyOf(out);
  }

  /** The cell at N identities, as a one-cell sweep of its own. */
  private IdentitiesVerdict.Measured cell(
      OneCellSweep cells,
      RigDescriptor live,
      double rate,
      IdentitiesRoundReport.PlannedIdentitiesCell planned)
      throws OneCellSweep.CellFailed {
    SweepOptions options = o.sweepOptions.withIdentities(planned.identities());
    ExperimentIdentity identity =
        Identities.of(
            o.profile,
            live,
            List.of(rate),
            o.duration.toNanos() / 1e9,
            1,
            null,
            options.measurement());
    Cell cell =
        cells.measure(
            identity,
            options,
            planned.sequence(),
            planned.repeat(),
            "at " + planned.identities() + " identities");
    return new IdentitiesVerdict.Measured(cell, identity, live.clientSideEvidence());
  }

  /** The declared admission limits read before the first cell: coverage and the crossover. */
  private AdmissionPlan admission(double rate, Double ceiling) {
    MeasurementSettings m = o.sweepOptions.measurement();
    return AdmissionPlan.of(
        AdmissionBudgets.of(o.profile),
        m.warmupS(),
        o.duration.toNanos() / 1e9,
        rate,
        ceiling,
        m.sourceAddresses());
  }

  private static Outcome outcome(IdentitiesRoundReport r, RoundEnd end) {
    if (end.failed()) {
      return Outcome.INFRASTRUCTURE;
    }
    boolean allRead =
        r.verdict() != null
            && r.verdict().rows().stream()
                .noneMatch(x -> x.reading() == IdentitiesRow.Reading.NOT_MEASURED);
    return r.complete() && allRead ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
  }

  /** The round's file, rewritten after every cell over the plan declared before the first. */
  private final class Report {
    private final Path file;
    private final IdentitiesRoundReport planned;

    Report(Path file, IdentitiesRoundReport planned) {
      this.file = file;
      this.planned = planned;
    }

    IdentitiesRoundReport write(List<IdentitiesVerdict.Measured> measured, RoundEnd ended)
        throws IOException {
      int plannedCells = planned.plan().size();
      IdentitiesReport verdict =
          measured.isEmpty()
              ? null
              : planned
                  .admission()
                  .answer(
                      IdentitiesVerdict.judge(
                          planned.identities(),
                          planned.offeredPerS(),
                          o.sweepOptions.measurement().sourceAddresses(),
                          measured,
                          planned.rig().limiterSettings(),
                          planned.predictedCeilingPerS(),
                          o.verdictConfig));
      IdentitiesRoundReport r =
          planned.measured(
              ended.ended() ? Instant.now() : null,
              measured.size() == plannedCells,
              ended.incompleteReason(measured.size(), plannedCells),
              measured.stream()
                  .map(
                      m ->
                          new IdentitiesRoundReport.MeasuredIdentitiesCell(
                              m.identity().measurement().identities(),
                              m.cell(),
                              IdentitiesVerdict.exclusion(m, o.verdictConfig).orElse(null)))
                  .toList(),
              verdict);
      Json.write(file, r);
      return r;
    }
  }

  /** Fluent configuration; {@link #run()} validates and runs. Not thread-safe. */
  public static final class Builder extends RoundBuilder<Builder> {
    private List<Integer> identities;
    private Double rate;
    private double rateMultiple = DEFAULT_RATE_MULTIPLE;

    private Builder() {
      super(Duration.ofSeconds(5));
      this.repeats = 2;
    }

    @Override
    Builder self() {
      return this;
    }

    /** The grid of N, signing keys the offer is spread over, each 1 to the sweep's maximum. */
    public Builder identities(List<Integer> n) {
      this.identities = List.copyOf(n);
      return this;
    }

    /** The one offered rate, events/s (default: 1.5 x the top of the relay's predicted range). */
    public Builder rate(double perS) {
      this.rate = perS;
      return this;
    }

    /** The offer as this multiple of the top of the relay's predicted range (default 1.5). */
    public Builder rateFromCalibration(double multiple) {
      this.rate = null;
      this.rateMultiple = multiple;
      return this;
    }

    /** Validates every option, reporting all problems at once, then runs. */
    public RoundResult<IdentitiesRoundReport> run() throws ExperimentException {
      List<String> problems = commonProblems();
      if (identities == null || identities.isEmpty()) {
        problems.add("identities are required: the grid of N");
      } else if (identities.stream()
          .anyMatch(n -> n == null || n < 1 || n > SweepOptions.MAX_IDENTITIES)) {
        problems.add(
            "identities must each be in [1, "
                + SweepOptions.MAX_IDENTITIES
                + "], got "
                + identities);
      }
      if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
        problems.add("rate must be a finite number > 0, got " + rate);
      }
      if (!(rateMultiple > 0 && Double.isFinite(rateMultiple))) {
        problems.add("rate multiple must be a finite number > 0, got " + rateMultiple);
      }
      if (repeats < 1) {
        problems.add("repeats must be >= 1, got " + repeats);
      }
      if (profile != null && !duration.isZero() && !duration.isNegative()) {
        // The limiter-window rule, before the relay starts: a cell shorter than the longest
        // declared window would read the limiter's first seconds as "nothing binds".
        String uncovered =
            LimiterWindowRule.of(
                    AdmissionBudgets.of(profile),
                    sweepOptions.measurement().warmupS(),
                    duration.toNanos() / 1e9)
                .refusal();
        if (uncovered != null) {
          problems.add(uncovered);
        }
      }
      orThrow(problems);
      return new IdentitiesRound(this).runRound();
    }
  }
}
