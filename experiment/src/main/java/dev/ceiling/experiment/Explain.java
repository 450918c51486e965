package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.verdict.LimiterWindowRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * {@code ceiling explain}: every round a profile allows, on one plan, each in its own directory.
 * The A/B of the profile's named path ({@link Experiment}), the delay sweep on each declared link
 * ({@link DelaySweep}), the defaults round when the profile declares admission limits ({@link
 * IdentitiesRound}) and the lock round when it declares two communities ({@link SplitRound}). It
 * composes their public builders and re-implements none: each round plans, measures, judges and
 * writes its own file as it does on its own.
 *
 * <p>The plan ({@link ExplainPlan}: the rounds, their settings, the rounds that cannot run on this
 * profile with why, the estimate) is written to {@value #PLAN_FILE} before the first round. Each
 * round that ends is recorded in {@value #STATE_FILE}; a round that fails says so there and the
 * next still runs. A stop request ({@link #interrupt()}, or Ctrl-C through the hook) starts no
 * further round; {@code resume(true)} continues the run: a recorded round is not measured again, an
 * A/B and a delay sweep continue through their own resume, and a round without one (the lock and
 * defaults rounds, minutes long) is measured anew, the interrupted directory kept beside it.
 *
 * <pre>{@code
 * ExplainResult r = Explain.builder()
 *     .profile(RelayProfile.load(Path.of("my-relay.json")))
 *     .outDir(Path.of("target", "explain"))
 *     .run();
 * }</pre>
 *
 * <p>An instance runs once; not thread-safe ({@link #interrupt()} may come from any thread).
 */
public final class Explain {
  /** The plan, written before the first round. */
  public static final String PLAN_FILE = "explain-plan.json";

  /** The rounds that ended, rewritten after each. */
  public static final String STATE_FILE = "explain-rounds.json";

  /** The A/B's grid when none is given: these multiples of the relay's predicted ceiling. */
  public static final List<Double> AB_AUTO_MULTIPLES = List.of(0.5, 0.8, 1.3, 1.8);

  /** The lock round's grid when none is given: these multiples of one lock's predicted ceiling. */
  public static final List<Double> SPLIT_AUTO_MULTIPLES = List.of(1.5, 3.0);

  /** The defaults round's grid of signing keys when none is given. */
  public static final List<Integer> DEFAULT_IDENTITIES = List.of(10, 100, 500);

  /**
   * The estimate's allowance for one relay start and stop (the reference relay's calibration
   * included), seconds.
   */
  static final double RELAY_START_S = 6;

  /** The estimate's allowance per cell beyond its warm-up and window (drain, scrapes), seconds. */
  static final double CELL_OVERHEAD_S = 1.5;

  private final Builder o;
  private final ExplainPlan plan;
  private final AtomicBoolean stop = new AtomicBoolean();

  private Explain(Builder o, ExplainPlan plan) {
    this.o = o;
    this.plan = plan;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The plan this run follows. */
  public ExplainPlan plan() {
    return plan;
  }

  /**
   * No round starts after this; the running round stops through its own hook on a signal (an
   * embedder that handles Ctrl-C itself lets the running round finish).
   */
  public void interrupt() {
    stop.set(true);
  }

  /** {@value #STATE_FILE}: the rounds that ended, for a resume. */
  public record State(List<ExplainResult.RoundEnd> finished) {
    public State {
      finished = List.copyOf(finished);
    }
  }

  /**
   * Writes the plan (or checks a resumed one), runs each round in turn and returns how each ended.
   * Once the plan is written nothing throws: a round that fails is its end's problem.
   *
   * @throws ExperimentException when the plan cannot be written, the directory already holds a run
   *     (without resume), or a resume has no plan or another one
   */
  public ExplainResult run() throws ExperimentException {
    Path planFile = o.outDir.resolve(PLAN_FILE);
    Path stateFile = o.outDir.resolve(STATE_FILE);
    Map<String, ExplainResult.RoundEnd> recorded = new LinkedHashMap<>();
    try {
      if (o.resume) {
        if (!Files.exists(planFile)) {
          throw new ExperimentException(
              "nothing to resume in " + o.outDir + ": no " + PLAN_FILE, null);
        }
        ExplainPlan stored = Json.read(planFile, ExplainPlan.class);
        if (!stored.equals(plan)) {
          throw new ExperimentException(
              "cannot resume "
                  + o.outDir
                  + ": its "
                  + PLAN_FILE
                  + " is another plan than these options give ("
                  + differences(stored, plan)
                  + "); pass the options the run was started with",
              null);
        }
        if (Files.exists(stateFile)) {
          Json.read(stateFile, State.class).finished().forEach(e -> recorded.put(e.dir(), e));
        }
      } else {
        if (Files.exists(planFile)) {
          throw new ExperimentException(
              planFile
                  + " already exists: choose a new directory, or continue that run with resume"
                  + " (ceiling explain --resume "
                  + o.outDir
                  + ")",
              null);
        }
        Files.createDirectories(o.outDir);
        Json.write(planFile, plan);
      }
    } catch (ReportFormatException e) {
      throw new ExperimentException("cannot resume: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ExperimentException("cannot write " + planFile + ": " + e, e);
    }
    ShutdownHook hook =
        o.installShutdownHook
            ? ShutdownHook.install(
                "ceiling-explain",
                this::interrupt,
                ShutdownHook.INTERRUPT_GRACE.plusSeconds(20),
                () -> {})
            : ShutdownHook.none();
    List<ExplainResult.RoundEnd> ends = new ArrayList<>();
    try {
      o.progress.planned(plan, planFile);
      double left = plan.estimateS();
      int index = 0;
      for (ExplainPlan.Round round : plan.rounds()) {
        index++;
        ExplainResult.RoundEnd end = recorded.get(round.dir());
        if (end != null) {
          o.progress.roundEnded(end, null);
        } else if (stop.get()) {
          end = notFinished(round, "not started: the run was stopped before it");
        } else {
          Instant started = Instant.now();
          end = runRound(round, index, Duration.ofMillis((long) (left * 1000)));
          o.progress.roundEnded(end, Duration.between(started, Instant.now()));
          if (end.ran() == ExplainResult.Ran.RAN) {
            recorded.put(round.dir(), end);
            writeState(stateFile, recorded);
          }
        }
        left -= round.estimateS();
        ends.add(end);
      }
    } finally {
      hook.close();
    }
    for (ExplainPlan.NotRun n : plan.notRun()) {
      ends.add(
          new ExplainResult.RoundEnd(
              n.name(),
              n.kind(),
              null,
              ExplainResult.Ran.NOT_APPLICABLE,
              null,
              List.of(n.reason()),
              null));
    }
    return new ExplainResult(plan, o.outDir, ends, stop.get(), outcome(ends));
  }

  /** One round, its directory taken up first on a resume; never throws. */
  private ExplainResult.RoundEnd runRound(ExplainPlan.Round round, int index, Duration left) {
    Path dir = o.outDir.resolve(round.dir());
    try {
      Continued c = continued(round, dir);
      if (c.finished() != null) {
        return c.finished();
      }
      o.progress.roundStarting(round, index, plan.rounds().size(), left, c.words());
      ExplainResult.RoundEnd end = measure(round, dir, c.resume());
      if (stop.get() && end.outcome() != Outcome.ESTABLISHED && !completeOnDisk(round, dir)) {
        // A round a stop request cut short is not recorded: a resume takes it up.
        return notFinished(round, "interrupted: continue it with resume");
      }
      return end;
    } catch (ExperimentException e) {
      return ended(round, Outcome.BAD_INPUT, List.of(e.getMessage()), null);
    } catch (IOException | RuntimeException e) {
      if (stop.get()) {
        return notFinished(round, "not started: the run was stopped as it began (" + e + ")");
      }
      return ended(round, Outcome.INFRASTRUCTURE, List.of(e.toString()), null);
    }
  }

  /**
   * How a resumed run takes up a round's directory.
   *
   * @param resume true when the round continues through its own resume
   * @param finished the round's end read from its own file (a delay sweep a stop request ended
   *     after its last cell), or null
   * @param words what happens, in words, or null for a fresh round
   */
  private record Continued(boolean resume, ExplainResult.RoundEnd finished, String words) {}

  private Continued continued(ExplainPlan.Round round, Path dir)
      throws IOException, ExperimentException {
    if (!o.resume || !Files.isDirectory(dir)) {
      return new Continued(false, null, null);
    }
    switch (round.kind()) {
      case AB -> {
        try (Stream<Path> s = Files.list(dir)) {
          if (s.anyMatch(p -> p.getFileName().toString().startsWith("journal-"))) {
            return new Continued(true, null, "continues its journals");
          }
        }
      }
      case DELAY_SWEEP -> {
        Path file = dir.resolve(DelaySweep.REPORT_FILE);
        if (Files.exists(file)) {
          DelaySweepReport r = DelaySweepFile.read(file);
          if (r.complete()) {
            return new Continued(
                false,
                ended(
                    round,
                    r.established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED,
                    List.of(),
                    round.dir() + "/" + DelaySweep.REPORT_FILE),
                null);
          }
          return new Continued(true, null, "continues " + DelaySweep.REPORT_FILE);
        }
      }
      default -> {
        // The lock and defaults rounds have no resume: measured anew below.
      }
    }
    Path aside = dir.resolveSibling(round.dir() + ".interrupted");
    for (int n = 2; Files.exists(aside); n++) {
      aside = dir.resolveSibling(round.dir() + ".interrupted-" + n);
    }
    Files.move(dir, aside);
    return new Continued(
        false,
        null,
        "measured anew (this round has no resume); the interrupted one kept in "
            + aside.getFileName()
            + "/");
  }

  /** True when the round's own file says it measured its whole plan. */
  private static boolean completeOnDisk(ExplainPlan.Round round, Path dir) {
    try {
      return switch (round.kind()) {
        case AB -> false;
        case DELAY_SWEEP -> DelaySweepFile.read(dir.resolve(DelaySweep.REPORT_FILE)).complete();
        case SPLIT ->
            Json.read(dir.resolve(SplitRound.REPORT_FILE), SplitRoundReport.class).complete();
        case DEFAULTS ->
            Json.read(dir.resolve(IdentitiesRound.REPORT_FILE), IdentitiesRoundReport.class)
                .complete();
      };
    } catch (ExperimentException | ReportFormatException | RuntimeException e) {
      return false;
    }
  }

  /** Runs the round through its own builder. */
  private ExplainResult.RoundEnd measure(ExplainPlan.Round round, Path dir, boolean resume)
      throws ExperimentException {
    return switch (round.kind()) {
      case AB -> {
        ExperimentResult r = o.ab(dir, resume).run();
        yield ended(round, r.outcome(), r.problems(), relative(r.reportJson()));
      }
      case DELAY_SWEEP -> {
        DelaySweepResult r = o.delaySweep(round.settings().link(), dir, resume).run();
        yield ended(round, r.outcome(), r.problems(), relative(r.file()));
      }
      case DEFAULTS -> {
        RoundResult<IdentitiesRoundReport> r = o.defaults(dir).run();
        yield ended(round, r.outcome(), r.problems(), relative(r.file()));
      }
      case SPLIT -> {
        RoundResult<SplitRoundReport> r = o.split(dir).run();
        yield ended(round, r.outcome(), r.problems(), relative(r.file()));
      }
    };
  }

  private String relative(Path file) {
    return file == null ? null : o.outDir.relativize(file).toString().replace('\\', '/');
  }

  private static ExplainResult.RoundEnd ended(
      ExplainPlan.Round round, Outcome outcome, List<String> problems, String file) {
    return new ExplainResult.RoundEnd(
        round.name(), round.kind(), round.dir(), ExplainResult.Ran.RAN, outcome, problems, file);
  }

  private static ExplainResult.RoundEnd notFinished(ExplainPlan.Round round, String why) {
    return new ExplainResult.RoundEnd(
        round.name(),
        round.kind(),
        round.dir(),
        ExplainResult.Ran.NOT_FINISHED,
        null,
        List.of(why),
        null);
  }

  private static void writeState(Path file, Map<String, ExplainResult.RoundEnd> recorded) {
    try {
      Json.write(file, new State(new ArrayList<>(recorded.values())));
    } catch (IOException e) {
      // The rounds' own files hold what was measured; a resume measures this round's end again.
    }
  }

  /** Every round that runs ESTABLISHED: ESTABLISHED; any INFRASTRUCTURE: that; else NOT. */
  static Outcome outcome(List<ExplainResult.RoundEnd> ends) {
    boolean all = true;
    for (ExplainResult.RoundEnd e : ends) {
      if (e.ran() == ExplainResult.Ran.NOT_APPLICABLE) {
        continue;
      }
      if (e.outcome() == Outcome.INFRASTRUCTURE) {
        return Outcome.INFRASTRUCTURE;
      }
      all &= e.outcome() == Outcome.ESTABLISHED;
    }
    return all ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
  }

  /** What differs between a stored plan and the one these options give, in words. */
  static String differences(ExplainPlan stored, ExplainPlan given) {
    List<String> out = new ArrayList<>();
    if (!stored.profile().equals(given.profile())) {
      out.add("profile '" + stored.profile() + "' against '" + given.profile() + "'");
    }
    if (!stored.relayOverrides().equals(given.relayOverrides())) {
      out.add("parameters " + stored.relayOverrides() + " against " + given.relayOverrides());
    }
    if (!stored.rounds().equals(given.rounds())) {
      out.add("rounds " + stored.rounds() + " against " + given.rounds());
    }
    if (!stored.notRun().equals(given.notRun())) {
      out.add("rounds not run " + stored.notRun() + " against " + given.notRun());
    }
    return out.isEmpty() ? "the estimate" : String.join("; ", out);
  }

  /** Fluent configuration; {@link #run()} validates, plans and runs. Not thread-safe. */
  public static final class Builder extends MeasurementBuilder<Builder> {
    private Duration warmup = Duration.ofSeconds(2);
    private Long seed;
    private List<Double> rates;
    private List<Double> abMultiples = AB_AUTO_MULTIPLES;
    private List<Double> splitMultiples = SPLIT_AUTO_MULTIPLES;
    private List<Double> delaysMs = DelaySweepOptions.DEFAULT_DELAYS_MS;
    private Map<String, Double> holdoutByLink = Map.of();
    private List<Integer> identities = DEFAULT_IDENTITIES;
    private Double sweepRate;
    private Double latencyRate;
    private boolean resume;
    private boolean installShutdownHook = true;
    private ExplainProgress progress = ExplainProgress.NONE;
    private ExperimentProgress cellProgress = ExperimentProgress.NONE;
    private DelaySweepProgress sweepProgress = DelaySweepProgress.NONE;
    private UnaryOperator<Experiment.Builder> abExtra = UnaryOperator.identity();

    /**
     * The shared settings (relay, overrides, window, repeats, cell measurement, verdict settings,
     * directory) go to every round; the window defaults to 4 s, the directory is required, and the
     * warm-up is set apart from the cell measurement.
     */
    private Builder() {
      super(Duration.ofSeconds(4), SweepOptions.defaults(Path.of("journal.jsonl")));
    }

    @Override
    Builder self() {
      return this;
    }

    /** Each cell's warm-up in every round, >= 0 (default 2 s). */
    public Builder warmup(Duration d) {
      this.warmup = Objects.requireNonNull(d, "warmup");
      return this;
    }

    /** Every round's cell-order seed (default: each round's own order). */
    public Builder seed(Long s) {
      this.seed = s;
      return this;
    }

    /**
     * Fixed offered rates, events/s, for the A/B and the lock round; the defaults round offers the
     * highest (default: each placed from the relay's calibration, {@link #AB_AUTO_MULTIPLES} and
     * {@link #SPLIT_AUTO_MULTIPLES}).
     */
    public Builder rates(List<Double> perS) {
      this.rates = perS == null ? null : perS.stream().sorted().distinct().toList();
      return this;
    }

    /** The delays every delay sweep adds, ms, ascending (default 0, 0.5, 1, 2, 3, 4). */
    public Builder delaysMs(List<Double> ms) {
      this.delaysMs = List.copyOf(ms);
      return this;
    }

    /**
     * A checked what-if per link ({@code --at LINK=MS}): each named link's delay sweep holds a
     * holdout at that delay (see {@link DelaySweepOptions.Builder#holdoutAt}). Empty by default.
     */
    public Builder holdoutAt(Map<String, Double> msByLink) {
      this.holdoutByLink = Map.copyOf(msByLink);
      return this;
    }

    /**
     * Every delay sweep's one offered rate, events/s (default null: the sweep's own placement, 1.5
     * x the relay's predicted ceiling, or where it predicts none the ceiling a ramp measured
     * first). A relay that predicts no ceiling ramps once per link without it, which the estimate
     * leaves out.
     */
    public Builder sweepRate(Double perS) {
      this.sweepRate = perS;
      return this;
    }

    /**
     * Every delay sweep's latency offer, events/s, below {@link #sweepRate} (default null: the
     * sweep's own, 0.1 x the ceiling where a ramp measured it, else no latency slope). Each point
     * then has a latency cell before its cell.
     */
    public Builder latencyRate(Double perS) {
      this.latencyRate = perS;
      return this;
    }

    /** The defaults round's grid of signing keys (default 10, 100, 500). */
    public Builder identities(List<Integer> n) {
      this.identities = List.copyOf(n);
      return this;
    }

    /** Continue the run in {@link #outDir} (default false). */
    public Builder resume(boolean value) {
      this.resume = value;
      return this;
    }

    /** Whether Ctrl-C is handled (default true; an embedder may handle it). */
    public Builder installShutdownHook(boolean install) {
      this.installShutdownHook = install;
      return this;
    }

    public Builder progress(ExplainProgress p) {
      this.progress = Objects.requireNonNull(p, "progress");
      return this;
    }

    /** The cells' listener of the A/B, the lock and the defaults rounds. */
    public Builder cellProgress(ExperimentProgress p) {
      this.cellProgress = Objects.requireNonNull(p, "cellProgress");
      return this;
    }

    /** The delay sweeps' listener. */
    public Builder sweepProgress(DelaySweepProgress p) {
      this.sweepProgress = Objects.requireNonNull(p, "sweepProgress");
      return this;
    }

    /** What the caller adds to the A/B's builder (a rendering beside report.json). */
    public Builder abExtra(UnaryOperator<Experiment.Builder> extra) {
      this.abExtra = Objects.requireNonNull(extra, "abExtra");
      return this;
    }

    /** Validates every option at once, then plans. */
    public Explain build() throws ExperimentException {
      List<String> problems = new ArrayList<>();
      if (profile == null) {
        problems.add("profile is required");
      }
      if (outDir == null) {
        problems.add("outDir is required");
      }
      if (duration.isZero() || duration.isNegative()) {
        problems.add("duration must be > 0, got " + duration);
      }
      if (warmup.isNegative()) {
        problems.add("warmup must be >= 0, got " + warmup);
      }
      if (repeats < 2) {
        problems.add("repeats must be >= 2 (a variance needs two cells per point), got " + repeats);
      }
      if (rates != null
          && (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0) || r.isInfinite()))) {
        problems.add("rates must be finite numbers > 0, got " + rates);
      }
      if (sweepRate != null && !(sweepRate > 0 && Double.isFinite(sweepRate))) {
        problems.add("sweep rate must be a finite number > 0 events/s, got " + sweepRate);
      }
      if (latencyRate != null && !(latencyRate > 0 && Double.isFinite(latencyRate))) {
        problems.add("latency rate must be a finite number > 0 events/s, got " + latencyRate);
      } else if (latencyRate != null && sweepRate != null && !(latencyRate < sweepRate)) {
        problems.add(
            "latency rate must be below the sweep rate "
                + sweepRate
                + " events/s (the latency slope is read well below the ceiling), got "
                + latencyRate);
      }
      problems.addAll(DelaySweepPlan.problemsOfGrid(delaysMs));
      for (Map.Entry<String, Double> e : new TreeMap<>(holdoutByLink).entrySet()) {
        if (profile != null && !profile.linkNames().contains(e.getKey())) {
          problems.add(
              "what-if link '"
                  + e.getKey()
                  + "' is not a link of profile '"
                  + profile.name()
                  + "', which declares "
                  + profile.linkNames());
        }
        DelaySweepPlan.problemsOfHoldout(delaysMs, e.getValue()).stream()
            .map(q -> "what-if on link '" + e.getKey() + "': " + q)
            .forEach(problems::add);
      }
      if (identities.isEmpty()
          || identities.stream()
              .anyMatch(n -> n == null || n < 1 || n > SweepOptions.MAX_IDENTITIES)) {
        problems.add(
            "identities must each be in [1, "
                + SweepOptions.MAX_IDENTITIES
                + "], got "
                + identities);
      }
      RoundBuilder.orThrow(problems);
      return new Explain(this, plan());
    }

    /** Validates, plans and runs. */
    public ExplainResult run() throws ExperimentException {
      return build().run();
    }

    // ---- The plan: a pure function of the options and the profile ----

    private ExplainPlan plan() {
      List<ExplainPlan.Round> rounds = new ArrayList<>();
      List<ExplainPlan.NotRun> notRun = new ArrayList<>();
      double d = seconds(duration);
      double w = seconds(warmup);
      double cellS = d + w + CELL_OVERHEAD_S;
      int abRates = rates != null ? rates.size() : abMultiples.size();
      rounds.add(
          round(
              "A/B of '" + profile.treatmentArm() + "' against '" + profile.controlArm() + "'",
              ExplainPlan.Kind.AB,
              "ab",
              settings(rates, rates == null ? abMultiples : null, null, null, null),
              2 * abRates * repeats,
              cellS,
              2));
      if (profile.linkNames().isEmpty()) {
        notRun.add(
            new ExplainPlan.NotRun(
                "delay sweep",
                ExplainPlan.Kind.DELAY_SWEEP,
                "profile '"
                    + profile.name()
                    + "' declares no link (no upstreams, no delay controls)"));
      }
      for (String link : profile.linkNames()) {
        rounds.add(
            round(
                "delay sweep on link '" + link + "'",
                ExplainPlan.Kind.DELAY_SWEEP,
                "delay-sweep-" + link.replaceAll("[^A-Za-z0-9_.-]", "_"),
                settings(sweepRate == null ? null : List.of(sweepRate), null, link, delaysMs, null),
                // A latency offer puts a latency cell before each cell.
                (delaysMs.size() + (holdoutByLink.containsKey(link) ? 1 : 0))
                    * repeats
                    * (latencyRate == null ? 1 : 2),
                cellS,
                1));
      }
      String defaults = "defaults round";
      if (profile.admissionLimits().isEmpty()) {
        notRun.add(
            new ExplainPlan.NotRun(
                defaults,
                ExplainPlan.Kind.DEFAULTS,
                "profile '"
                    + profile.name()
                    + "' declares no admission limits (admission_limits)"));
      } else {
        String uncovered = LimiterWindowRule.of(AdmissionBudgets.of(profile), w, d).refusal();
        if (uncovered != null) {
          notRun.add(new ExplainPlan.NotRun(defaults, ExplainPlan.Kind.DEFAULTS, uncovered));
        } else {
          rounds.add(
              round(
                  defaults,
                  ExplainPlan.Kind.DEFAULTS,
                  "defaults",
                  settings(
                      rates == null ? null : List.of(rates.get(rates.size() - 1)),
                      rates == null ? List.of(IdentitiesRound.DEFAULT_RATE_MULTIPLE) : null,
                      null,
                      null,
                      identities.stream().sorted().distinct().toList()),
                  identities.stream().distinct().toList().size() * repeats,
                  cellS,
                  1));
        }
      }
      if (profile.targets().size() < 2) {
        notRun.add(
            new ExplainPlan.NotRun(
                "lock round",
                ExplainPlan.Kind.SPLIT,
                "profile '"
                    + profile.name()
                    + "' declares "
                    + profile.targets().size()
                    + " community (targets); the lock round splits the offer over two"));
      } else {
        int splitRates = rates != null ? rates.size() : splitMultiples.size();
        rounds.add(
            round(
                "lock round",
                ExplainPlan.Kind.SPLIT,
                "split",
                settings(rates, rates == null ? splitMultiples : null, null, null, null),
                2 * splitRates * repeats,
                cellS,
                1));
      }
      double total = rounds.stream().mapToDouble(ExplainPlan.Round::estimateS).sum();
      return new ExplainPlan(
          ExplainPlan.SCHEMA, profile.name(), shownOverrides(), rounds, notRun, total);
    }

    private static ExplainPlan.Round round(
        String name,
        ExplainPlan.Kind kind,
        String dir,
        ExplainPlan.Settings s,
        int cells,
        double cellS,
        int relayStarts) {
      return new ExplainPlan.Round(
          name, kind, dir, s, cells, Math.rint(cells * cellS + relayStarts * RELAY_START_S));
    }

    private ExplainPlan.Settings settings(
        List<Double> r, List<Double> multiples, String link, List<Double> delays, List<Integer> n) {
      return new ExplainPlan.Settings(
          seconds(duration),
          seconds(warmup),
          repeats,
          seed,
          r,
          multiples,
          link,
          delays,
          n,
          link == null ? null : latencyRate,
          link == null ? null : holdoutByLink.get(link));
    }

    private Map<String, String> shownOverrides() {
      Map<String, String> out = new TreeMap<>();
      relayOverrides.forEach((k, v) -> out.put(k, profile.isSecret(k) ? "(secret)" : v));
      return out;
    }

    private static double seconds(Duration d) {
      return d.toNanos() / 1e9;
    }

    private static double[] array(List<Double> l) {
      return l.stream().mapToDouble(Double::doubleValue).toArray();
    }

    // ---- Each round's own builder, from these settings ----

    private SweepOptions cells(Path dir) {
      return sweepOptions.withJournal(dir.resolve("journal.jsonl")).withWarmup(warmup);
    }

    /** A one-relay round's builder with the shared settings, the listener and the order seed. */
    private <T extends RoundBuilder<T>> T oneRelay(T b, SweepOptions cells, Path dir) {
      sharedTo(b, cells, dir).progress(cellProgress).installShutdownHook(installShutdownHook);
      if (seed != null) {
        b.shuffled(seed);
      }
      return b;
    }

    Experiment.Builder ab(Path dir, boolean resume) {
      Experiment.Builder b =
          oneRelay(Experiment.builder(), sweepOptions.withWarmup(warmup), dir).resume(resume);
      if (rates != null) {
        b.rates(rates);
      } else {
        b.ratesFromCalibration(array(abMultiples));
      }
      return abExtra.apply(b);
    }

    DelaySweepOptions.Builder delaySweep(String link, Path dir, boolean resume) {
      DelaySweepOptions.Builder b =
          sharedTo(DelaySweep.builder(), cells(dir), dir)
              .link(link)
              .delaysMs(delaysMs)
              .progress(sweepProgress)
              .holdoutAt(
                  holdoutByLink.containsKey(link)
                      ? Map.of(link, holdoutByLink.get(link))
                      : Map.of())
              .rate(sweepRate)
              .latencyRate(latencyRate)
              .resume(resume);
      if (seed != null) {
        b.seed(seed);
      }
      return b;
    }

    IdentitiesRound.Builder defaults(Path dir) {
      IdentitiesRound.Builder b =
          oneRelay(IdentitiesRound.builder(), cells(dir), dir).identities(identities);
      if (rates != null) {
        b.rate(rates.get(rates.size() - 1));
      }
      return b;
    }

    SplitRound.Builder split(Path dir) {
      SplitRound.Builder b = oneRelay(SplitRound.builder(), cells(dir), dir);
      return rates != null ? b.rates(rates) : b.ratesFromLockCalibration(array(splitMultiples));
    }
  }
}
