package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.verdict.SplitReport;
import dev.ceiling.verdict.SplitVerdict;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The split round ({@code ceiling experiment --design split}): what the first ceiling masks. One
 * relay, the arm with the code path on, measured in pairs of cells at the same total offered rate:
 * "one" sends everything to one community, "split" half to each of two (Host-resolved, the
 * profile's first two targets). A per-community limit, such as a lock per community, lets the split
 * arm accept more; a global one, or the workers, does not. The verdict ({@link SplitVerdict}) asks
 * at each rate whether splitting raises accepted/offered and whether the difference is within
 * +-delta, and detects the rates where the workers bind first in both arms (masked: they cannot
 * speak about a lock).
 *
 * <p>The plan (grid, repeats, seeded pair order, delta) is written to {@code split.json} before the
 * first cell; the verdict is added when the round ends. No resume: a round is minutes long.
 *
 * <pre>{@code
 * RoundResult<SplitRoundReport> r = SplitRound.builder()
 *     .profile(RelayProfile.builtIn("reference"))
 *     .relayOverrides(Map.of("audit_workers", "4", "audit_lock", "per-community"))
 *     .ratesFromLockCalibration(1.5, 3.0)
 *     .outDir(Path.of("target", "split"))
 *     .run();
 * }</pre>
 *
 * <p>An instance runs once; not thread-safe ({@link #interrupt()} may come from any thread).
 */
public final class SplitRound {
  /** The file the round writes in its output directory. */
  public static final String REPORT_FILE = "split.json";

  /** The relay_info key of the reference relay's prediction for all its workers together. */
  public static final String PREDICTED_WORKERS_KEY = Predictions.WORKERS_KEY;

  /** The relay_info key of the reference relay's prediction for one lock. */
  public static final String PREDICTED_LOCK_KEY = Predictions.LOCK_KEY;

  /** The equivalence margin when none is given: 0.05 of accepted/offered. */
  public static final double DEFAULT_DELTA = 0.05;

  private final Builder o;
  private final SweepRunner runner;
  private final StopSignal stop = new StopSignal();

  private SplitRound(Builder o) {
    this.o = o;
    this.runner = new SweepRunner(SweepRunner.defaultScraper(), o.progress);
    stop.running(runner::interrupt);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Stops the round after the running cell; what was measured is judged and written. */
  public void interrupt() {
    stop.request();
  }

  /**
   * Runs the round. Once the relay is up nothing throws: a failure ends the round with what was
   * measured in {@code split.json}.
   *
   * @throws ExperimentException when the output directory cannot be made or already holds a round
   */
  private RoundResult<SplitRoundReport> runRound() throws ExperimentException {
    return Rounds.run(o, REPORT_FILE, "split round", runner, stop, this::measure);
  }

  /** The relay is up: the plan, written; the cells; the verdict, written. */
  private RoundResult<SplitRoundReport> measure(RigDescriptor live, Path file) {
    if (live.targets().size() < 2) {
      return RoundResult.failed(
          Outcome.BAD_INPUT,
          "the split design needs two communities; profile '"
              + o.profile.name()
              + "' declares "
              + live.targets().size()
              + " target(s)");
    }
    Double workers = Predictions.of(live, Predictions.WORKERS_KEY);
    Double lock = Predictions.of(live, Predictions.LOCK_KEY);
    List<Double> rates = o.rates;
    if (o.lockMultiples != null) {
      Double basis = lock != null ? lock : workers;
      if (basis == null) {
        // The relay predicts no ceiling: the ramp measures the one-community ceiling first,
        // before the plan is written, and the multiples rest on it.
        CeilingRamp ramp;
        try {
          ramp =
              RampMeasure.forRound(
                  SweepRunner.defaultScraper(),
                  o.profile,
                  live,
                  o.sweepOptions,
                  o.outDir,
                  o.progress,
                  () -> false);
        } catch (MetricsException | OneCellSweep.CellFailed e) {
          return RoundResult.failed(Outcome.INFRASTRUCTURE, "the ceiling ramp failed: " + e);
        }
        if (ramp.ceilingPerS() == null) {
          return RoundResult.failed(
              Outcome.NOT_ESTABLISHED, RampMeasure.noCeiling(ramp, "--rates"));
        }
        basis = ramp.ceilingPerS();
      }
      rates = new AutoRates.Range(basis, basis).rates(o.lockMultiples);
    }
    double durationS = o.duration.toNanos() / 1e9;
    SweepOptions options =
        o.sweepOptions.withTwoCommunity(true).withJournal(o.outDir.resolve("journal.jsonl"));
    ExperimentIdentity identity =
        Identities.of(o.profile, live, rates, durationS, o.repeats, o.seed, options.measurement())
            .withEquivalenceMargin(o.delta);
    List<PlannedCell> plan = CellPlan.splitPairs(identity);
    SplitRoundReport planned = planned(live, identity, plan, workers, lock);
    try {
      Json.write(file, planned);
    } catch (IOException e) {
      return RoundResult.failed(Outcome.INFRASTRUCTURE, "cannot write " + file + ": " + e);
    }
    return runAndJudge(live, options, plan, planned, file);
  }

  /** The round's report before its first cell: the whole plan, declared. */
  private SplitRoundReport planned(
      RigDescriptor live,
      ExperimentIdentity identity,
      List<PlannedCell> plan,
      Double workers,
      Double lock) {
    List<SplitRoundReport.PlannedSplitCell> declared =
        plan.stream()
            .map(
                c ->
                    new SplitRoundReport.PlannedSplitCell(
                        c.sequence(),
                        c.offeredPerS(),
                        c.repeat(),
                        c.twoCommunity() ? "split" : "one"))
            .toList();
    return SplitRoundReport.planned(
        o.profile.name(), Redaction.redact(live), identity, declared, workers, lock);
  }

  /** The planned cells, then the verdict over what was measured, written over the plan. */
  private RoundResult<SplitRoundReport> runAndJudge(
      RigDescriptor live,
      SweepOptions options,
      List<PlannedCell> plan,
      SplitRoundReport planned,
      Path file) {
    List<String> problems = new ArrayList<>();
    HalfRun half;
    try {
      SweepRunner.Outcome run = runner.run(live, planned.identity(), options, plan);
      half = run.half();
      if (run.failure() != null) {
        problems.add(Redaction.redact(run.failure().getMessage()));
      }
    } catch (IOException | ReportFormatException e) {
      return RoundResult.failed(Outcome.INFRASTRUCTURE, "cannot write the journal: " + e);
    }
    SplitReport verdict =
        half.cells().isEmpty()
            ? null
            : SplitVerdict.judge(
                half,
                o.delta,
                planned.predictedWorkersCeilingPerS(),
                planned.predictedLockCeilingPerS(),
                o.verdictConfig);
    SplitRoundReport report =
        planned.ended(
            Instant.now(), half.complete(), half.incompleteReason(), half.cells(), verdict);
    try {
      Json.write(file, report);
    } catch (IOException e) {
      problems.add("cannot write " + file + ": " + e);
      return new RoundResult<>(report, null, Outcome.INFRASTRUCTURE, problems);
    }
    return new RoundResult<>(report, file, outcome(report, problems), problems);
  }

  /** A failure first; then a partial round; then the verdict's answer. */
  private static Outcome outcome(SplitRoundReport r, List<String> problems) {
    if (!r.complete() || r.verdict() == null) {
      return problems.isEmpty() ? Outcome.NOT_ESTABLISHED : Outcome.INFRASTRUCTURE;
    }
    SplitReport.Answer a = r.verdict().answer();
    return a == SplitReport.Answer.SPLIT_RAISES_THE_CEILING
            || a == SplitReport.Answer.EQUIVALENT_WITHIN_DELTA
        ? Outcome.ESTABLISHED
        : Outcome.NOT_ESTABLISHED;
  }

  /** Fluent configuration; {@link #run()} validates and runs. Not thread-safe. */
  public static final class Builder extends RoundBuilder<Builder> {
    private List<Double> rates;
    private List<Double> lockMultiples;
    private double delta = DEFAULT_DELTA;

    private Builder() {
      super(Duration.ofSeconds(4));
    }

    @Override
    Builder self() {
      return this;
    }

    /** The total offered rates in events/s, the same in both arms, each > 0. */
    public Builder rates(List<Double> perS) {
      this.rates = perS.stream().sorted().distinct().toList();
      this.lockMultiples = null;
      return this;
    }

    /**
     * Places the grid at these multiples of one lock's ceiling as the relay predicts it from its
     * own calibration (relay_info {@value #PREDICTED_LOCK_KEY}; without a lock, of the workers'
     * {@value #PREDICTED_WORKERS_KEY}), read once the relay is up and before the plan is fixed.
     */
    public Builder ratesFromLockCalibration(double... multiples) {
      List<Double> m = new ArrayList<>();
      for (double d : multiples) {
        m.add(d);
      }
      this.lockMultiples = List.copyOf(m);
      this.rates = null;
      return this;
    }

    /** The equivalence margin in accepted/offered, in (0, 1); default {@value #DEFAULT_DELTA}. */
    public Builder equivalenceMargin(double value) {
      this.delta = value;
      return this;
    }

    /** Validates every option, reporting all problems at once, then runs. */
    public RoundResult<SplitRoundReport> run() throws ExperimentException {
      return build().runRound();
    }

    SplitRound build() throws ExperimentException {
      List<String> problems = commonProblems();
      if (rates == null && lockMultiples == null) {
        problems.add("rates are required: give rates or ratesFromLockCalibration");
      }
      if (rates != null
          && (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0) || r.isInfinite()))) {
        problems.add("rates must be finite numbers > 0, got " + rates);
      }
      if (lockMultiples != null
          && (lockMultiples.isEmpty()
              || lockMultiples.stream().anyMatch(m -> !(m > 0) || m.isInfinite()))) {
        problems.add("rate multiples must be finite numbers > 0, got " + lockMultiples);
      }
      if (repeats < 2) {
        problems.add("repeats must be >= 2 (a variance needs two cells per rate and arm)");
      }
      if (!(delta > 0 && delta < 1)) {
        problems.add(
            "equivalence margin must be in (0, 1) (a fraction of accepted/offered), got " + delta);
      }
      orThrow(problems);
      return new SplitRound(this);
    }
  }
}
