package dev.ceiling.experiment;

import dev.ceiling.verdict.ExperimentReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The whole A/B experiment: rig up the treatment arm, sweep it, rig down; the same for the control
 * arm; combine; judge; write {@code report.json} and {@code report.html}. What this class starts it
 * always stops: on success, on failure and on Ctrl-C (a shutdown hook stops the sweep after the
 * running cell, writes what was measured and takes the relay down).
 *
 * <pre>{@code
 * ExperimentResult r = Experiment.builder()
 *     .profile(RelayProfile.builtIn("reference"))
 *     .rates(200, 400, 600, 800)
 *     .duration(Duration.ofSeconds(4))
 *     .repeats(3)
 *     .outDir(Experiment.newRunDirectory(Path.of("target", "ceiling")))  // default: ceiling-reports/<time>
 *     .run();
 * }</pre>
 *
 * <p>An instance runs once; it is not thread-safe.
 */
public final class Experiment {
  private final RunOptions o;
  private final RigControl rigs;
  private final ArmSweep.Factory sweeps;
  private final StopSignal stop = new StopSignal();

  private Experiment(RunOptions o, RigControl rigs, ArmSweep.Factory sweeps) {
    this.o = o;
    this.rigs = rigs;
    this.sweeps = sweeps;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs the experiment. Infrastructure failures (the relay did not start, metrics unreachable) do
   * not throw once measuring has begun: the result carries exit code {@link Outcome#INFRASTRUCTURE}
   * and everything measured until then.
   *
   * @throws ExperimentException for bad options or a relay that could not be started at all
   */
  public ExperimentResult run() throws ExperimentException {
    // On Ctrl-C: let the running cell finish and the report be written, then make sure the relay
    // is down whatever happened.
    ShutdownHook hook =
        o.installShutdownHook() ? Rounds.hook(stop, o.shutdownGrace()) : ShutdownHook.none();
    try {
      return runArms();
    } finally {
      hook.close();
    }
  }

  /** Stops the running sweep after its cell, or the next one before any cell (Ctrl-C's effect). */
  void requestStop() {
    stop.request();
  }

  /**
   * The phases in order: resume check, the arms (rig, rates, identity, sweep, teardown), judging,
   * writing.
   */
  private ExperimentResult runArms() throws ExperimentException {
    ResumeCheck.Previous previous = ResumeCheck.previous(o);
    try {
      Files.createDirectories(o.outDir());
    } catch (IOException e) {
      throw new ExperimentException("cannot create output directory " + o.outDir() + ": " + e, e);
    }
    Arms.Result arms = new Arms(o, previous, rigs, sweeps, stop).run();
    Judging.Judged judged =
        Judging.judge(
            arms.halves(), o.profile().treatmentArm(), o.profile().controlArm(), o.verdictConfig());
    ReportWriter.Written written = ReportWriter.write(o.outDir(), judged.report(), o.renderers());
    List<String> problems = new ArrayList<>(arms.problems());
    if (judged.problem() != null) {
      problems.add(judged.problem());
    }
    if (written.problem() != null) {
      problems.add(written.problem());
    }
    return new ExperimentResult(
        judged.report(),
        o.outDir(),
        written.json(),
        written.extra(),
        problems,
        Judging.outcome(arms.outcome(), judged, written));
  }

  /**
   * A new, empty directory of its own under {@code parent}, named by the UTC time to the
   * millisecond ({@code 20261201-101500-123}, with {@code -2}, {@code -3}... if taken), created
   * atomically so two runs never share one. The default {@link Builder#outDir} is one under {@code
   * ceiling-reports}: a second run of the same build never meets the first one's journals.
   */
  public static Path newRunDirectory(Path parent) throws IOException {
    Files.createDirectories(parent);
    String stamp =
        java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)
            .format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
    for (int n = 1; ; n++) {
      Path candidate = parent.resolve(n == 1 ? stamp : stamp + "-" + n);
      try {
        return Files.createDirectory(candidate);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // Another run took this name in the same millisecond: try the next suffix.
      }
    }
  }

  /** The relay_info key under which the reference relay reports its calibrated ceiling. */
  public static final String PREDICTED_CEILING_KEY = Predictions.WORKER_CEILING_KEY;

  /**
   * The relay_info key of the upper end of the relay's predicted range (the reference relay's
   * ceiling timed back to back); optional. The automatic grid places its rates above the ceiling on
   * it.
   */
  public static final String PREDICTED_CEILING_HOT_KEY = Predictions.WORKER_CEILING_HOT_KEY;

  /** Fluent configuration; {@link #run()} validates and runs. Not thread-safe. */
  public static final class Builder extends RoundBuilder<Builder> {
    private List<Double> rates = List.of(250.0, 500.0, 750.0, 1000.0);
    private List<Double> autoRateMultiples;
    private Double equivalenceMargin;
    private boolean resume;
    private Duration shutdownGrace = Duration.ofSeconds(60);
    private final Map<String, Function<ExperimentReport, String>> renderers = new LinkedHashMap<>();

    private Builder() {
      super(Duration.ofSeconds(4));
    }

    @Override
    Builder self() {
      return this;
    }

    /** The offered-rate grid in events/s, each > 0; sorted ascending. */
    public Builder rates(double... perS) {
      List<Double> r = new ArrayList<>();
      for (double d : perS) {
        r.add(d);
      }
      return rates(r);
    }

    public Builder rates(List<Double> perS) {
      this.rates = perS.stream().sorted().distinct().toList();
      this.autoRateMultiples = null;
      return this;
    }

    /**
     * Places the grid at these multiples of the ceiling the relay predicts from its own calibration
     * (reported in its descriptor's relay_info), read when the first arm is up: multiples below 1
     * on the low end of the predicted range, the others on its high end ({@link
     * #PREDICTED_CEILING_HOT_KEY}, when the relay reports one). For relays that report a ceiling
     * (the reference relay does); the sweep never judges against it.
     */
    public Builder ratesFromCalibration(double... multiples) {
      List<Double> m = new ArrayList<>();
      for (double d : multiples) {
        if (!(d > 0) || Double.isInfinite(d)) {
          throw new IllegalArgumentException("rate multiples must be finite and > 0, got " + d);
        }
        m.add(d);
      }
      this.autoRateMultiples = List.copyOf(m);
      return this;
    }

    /**
     * Also asks whether the treatment's cost, control minus treatment in accepted/offered, lies
     * within +-{@code delta} at each rate (a TOST, Holm across rates). Declared here, before the
     * first cell, it enters the experiment's identity; the overall verdict does not change, the
     * report gains the per-rate equivalence readings. Default: no equivalence question.
     *
     * @param delta a fraction of accepted/offered, in (0, 1); checked by {@link #run()}
     */
    public Builder equivalenceMargin(double delta) {
      this.equivalenceMargin = delta;
      return this;
    }

    /**
     * Also writes {@code fileName} in the output directory, rendered from the finished report (the
     * CLI adds {@code report.html} this way; the API itself renders nothing but JSON).
     */
    public Builder alsoRender(String fileName, Function<ExperimentReport, String> renderer) {
      Objects.requireNonNull(fileName, "fileName");
      Objects.requireNonNull(renderer, "renderer");
      if (fileName.isBlank() || fileName.contains("/") || "report.json".equals(fileName)) {
        throw new IllegalArgumentException(
            "fileName must be a plain file name other than report.json, got '" + fileName + "'");
      }
      renderers.put(fileName, renderer);
      return this;
    }

    /**
     * Continues the experiment in {@link #outDir}: each arm from its journal ({@code
     * journal-<arm>.jsonl}), without measuring a journalled cell again; an arm whose half-run is
     * complete on disk is not started at all. Refused, before any relay starts, when the directory
     * holds no journal or the journals disagree with these options (profile, arms, rates, duration,
     * repeats, order); refused after the relay is up when it differs from what the journals
     * recorded (parameters, limiter, queue capacity, versions, digests). With rates left to the
     * calibration, the journals' rates are used. Without resume, a directory that already holds a
     * journal is refused before anything starts.
     */
    public Builder resume(boolean value) {
      this.resume = value;
      return this;
    }

    /** Validates every option, reporting all problems at once, then runs. */
    public ExperimentResult run() throws ExperimentException {
      return build(RigControl.REAL, ArmSweep.Factory.real()).run();
    }

    /**
     * Validates every option, reporting all problems at once, and makes the experiment with these
     * relays and sweeps (the rig module's and {@link SweepRunner}s, or a test's fakes).
     */
    Experiment build(RigControl rigs, ArmSweep.Factory sweeps) throws ExperimentException {
      List<String> problems = commonProblems();
      if (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0) || r.isInfinite())) {
        problems.add("rates must be finite numbers > 0, got " + rates);
      }
      if (repeats < 1) {
        problems.add("repeats must be >= 1, got " + repeats);
      }
      if (equivalenceMargin != null && !(equivalenceMargin > 0 && equivalenceMargin < 1)) {
        problems.add(
            "equivalence margin must be in (0, 1) (a fraction of accepted/offered), got "
                + equivalenceMargin);
      }
      orThrow(problems);
      if (outDir == null && resume) {
        throw new ExperimentException("resume needs the out_dir of the run to continue", null);
      }
      RunOptions o =
          new RunOptions(
              profile,
              rates,
              autoRateMultiples,
              duration,
              repeats,
              seed,
              equivalenceMargin,
              relayOverrides,
              sweepOptions,
              verdictConfig,
              outDirOrNew(),
              progress,
              installShutdownHook,
              resume,
              shutdownGrace,
              renderers);
      return new Experiment(o, rigs, sweeps);
    }
  }
}
