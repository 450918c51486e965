package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.CombineException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
  private final Builder b;
  private final AtomicReference<RigHandle> currentRig = new AtomicReference<>();
  private final AtomicReference<SweepRunner> currentSweep = new AtomicReference<>();

  /**
   * Set by Ctrl-C (the shutdown hook): no new arm or cell starts after it. A flag, not only {@link
   * SweepRunner#interrupt()}, because Ctrl-C can arrive before a sweep exists (during a rig start)
   * or between the arms.
   */
  private final java.util.concurrent.atomic.AtomicBoolean stopRequested =
      new java.util.concurrent.atomic.AtomicBoolean();

  private Experiment(Builder b) {
    this.b = b;
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
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              requestStop();
              try {
                // Let the running cell finish and the report be written, then make sure the
                // relay is down whatever happened.
                finished.await(b.shutdownGrace.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              RigHandle h = currentRig.get();
              if (h != null) {
                h.close();
              }
            },
            "ceiling-shutdown");
    if (b.installShutdownHook) {
      Runtime.getRuntime().addShutdownHook(hook);
    }
    try {
      return runArms();
    } finally {
      finished.countDown();
      if (b.installShutdownHook) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // Already shutting down: the hook is running and will finish the teardown.
        }
      }
    }
  }

  /** Stops the running sweep after its cell, or the next one before any cell. */
  private void requestStop() {
    stopRequested.set(true);
    SweepRunner s = currentSweep.get();
    if (s != null) {
      s.interrupt();
    }
  }

  private ExperimentResult runArms() throws ExperimentException {
    Path out = b.outDir;
    List<String> arms = List.of(b.profile.treatmentArm(), b.profile.controlArm());
    // Every check of the directory's state comes before anything starts: no relay is launched
    // for a run that is then refused.
    Map<String, Journal.Contents> previous = ResumeCheck.journals(out, arms, b.resume);
    ExperimentIdentity recorded =
        previous.isEmpty() ? null : previous.values().iterator().next().identity();
    if (recorded != null) {
      ResumeCheck.requireSameOptions(
          out,
          recorded,
          b.profile,
          b.autoRateMultiples == null ? b.rates : null,
          b.duration.toNanos() / 1e9,
          b.repeats,
          b.seed);
    }
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new ExperimentException("cannot create output directory " + out + ": " + e, e);
    }
    MetricsScraper scraper =
        new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(5), 16 * 1024 * 1024);
    Map<String, HalfRun> halves = new LinkedHashMap<>();
    ExperimentIdentity identity = null;
    // A resumed run keeps the recorded grid: "auto" would calibrate afresh and never match.
    List<Double> rates = recorded != null ? recorded.ratesPerS() : b.rates;
    List<String> problems = new ArrayList<>();
    Outcome exit = Outcome.ESTABLISHED;
    boolean leftRunning = false;
    for (String arm : arms) {
      if (stopRequested.get()) {
        problems.add("interrupted before arm '" + arm + "' started");
        exit = Outcome.NOT_ESTABLISHED;
        break;
      }
      Path half = out.resolve("half-" + arm + ".json");
      Path journal = out.resolve("journal-" + arm + ".jsonl");
      Journal.Contents before = previous.get(arm);
      HalfRun finished = before == null ? null : ResumeCheck.finishedHalf(half, before);
      if (finished != null) {
        // Already complete on disk: reuse it without starting its relay again.
        b.progress.warning("arm '" + arm + "' is complete in " + half + "; not measured again");
        halves.put(arm, finished);
        identity = recorded;
        continue;
      }
      RigDescriptor rig;
      try (RigHandle handle = up(arm, out.resolve("rig-" + arm))) {
        rig = handle.descriptor();
        b.progress.rigUp(arm, rig);
        if (identity == null && recorded == null && b.autoRateMultiples != null) {
          rates = autoRates(rig);
          b.progress.warning(
              "rates chosen from the relay's own calibration (predicted worker ceiling "
                  + rig.relayInfo().get(PREDICTED_CEILING_KEY)
                  + "/s): "
                  + rates);
        }
        ExperimentIdentity armIdentity = identity(rig, rates);
        if (recorded != null) {
          List<String> differ = IdentityCheck.differences(recorded, armIdentity);
          if (!differ.isEmpty()) {
            problems.add(
                "cannot resume arm '"
                    + arm
                    + "': the relay now differs from the journals in "
                    + out
                    + ": "
                    + String.join("; ", differ));
            exit = Outcome.BAD_INPUT;
            break;
          }
          identity = recorded;
        }
        if (identity == null) {
          identity = armIdentity;
        } else {
          // The control's relay must be the treatment's in everything but the arm: a different
          // binary, parameter, limiter or queue measures a different system.
          List<String> differ = IdentityCheck.armsDiffer(identity, armIdentity);
          if (!differ.isEmpty()) {
            problems.add(
                "the control arm '"
                    + arm
                    + "' does not share the treatment arm's identity, so it was not swept: "
                    + String.join("; ", differ));
            exit = Outcome.BAD_INPUT;
            break;
          }
        }
        SweepRunner sweep = new SweepRunner(scraper, b.progress);
        currentSweep.set(sweep);
        // Set before checking: either this sees the hook's flag or the hook sees this sweep. A
        // Ctrl-C during the rig start thus stops the sweep before its first cell.
        if (stopRequested.get()) {
          sweep.interrupt();
        }
        SweepRunner.Outcome o =
            sweep.run(
                rig, identity, b.sweepOptions.withJournal(journal).withResume(before != null));
        currentSweep.set(null);
        Json.write(half, o.half());
        halves.put(arm, o.half());
        if (o.failure() != null) {
          problems.add("infrastructure failure in arm '" + arm + "': " + o.failure().getMessage());
          exit = Outcome.INFRASTRUCTURE;
          break;
        }
        if (!o.half().complete()) {
          problems.add("arm '" + arm + "' is incomplete: " + o.half().incompleteReason());
          exit = Outcome.NOT_ESTABLISHED;
          break;
        }
      } catch (AutoRateException e) {
        problems.add(e.getMessage());
        exit = Outcome.BAD_INPUT;
        break;
      } catch (RigException e) {
        problems.add("relay for arm '" + arm + "' did not start: " + e.getMessage());
        exit = Outcome.INFRASTRUCTURE;
        break;
      } catch (IOException | ReportFormatException e) {
        problems.add("cannot write results for arm '" + arm + "': " + e.getMessage());
        exit = Outcome.INFRASTRUCTURE;
        break;
      } finally {
        // The try closed the rig; what its stop found is said, not dropped: a relay this run
        // started and could not stop (still alive after SIGKILL, or no longer provably ours) is
        // the user's to end, and a next arm or run on its port would measure it too.
        RigHandle h = currentRig.getAndSet(null);
        if (h != null) {
          DownResult down = h.stop();
          if (!down.clean()) {
            problems.add("the relay of arm '" + arm + "' was not stopped: " + down.message());
            leftRunning = true;
            if (exit == Outcome.ESTABLISHED) {
              exit = Outcome.INFRASTRUCTURE;
            }
          }
        }
      }
      if (leftRunning) {
        // The next arm would share the machine (and perhaps the port) with this relay.
        break;
      }
    }
    ExperimentReport report = null;
    HalfRun treatment = halves.get(b.profile.treatmentArm());
    HalfRun control = halves.get(b.profile.controlArm());
    try {
      if (treatment != null && control != null) {
        report = ExperimentReport.of(Combine.combine(treatment, control), b.verdictConfig);
      } else if (treatment != null || control != null) {
        report =
            ExperimentReport.ofSingleArm(treatment != null ? treatment : control, b.verdictConfig);
      }
    } catch (CombineException e) {
      problems.add("the halves cannot be combined: " + e.getMessage());
      exit = Outcome.NOT_ESTABLISHED;
    }
    Path json = null;
    List<Path> extra = new ArrayList<>();
    if (report != null) {
      Path jsonFile = out.resolve("report.json");
      try {
        Json.write(jsonFile, report);
        // Listed as written only once it is: a failed write is a problem, not a path to open.
        json = jsonFile;
        for (Map.Entry<String, Function<ExperimentReport, String>> r : b.renderers.entrySet()) {
          Path file = out.resolve(r.getKey());
          Json.writeText(file, r.getValue().apply(report));
          extra.add(file);
        }
      } catch (IOException e) {
        problems.add("cannot write the report: " + e.getMessage());
        exit = Outcome.INFRASTRUCTURE;
      }
      if (exit == Outcome.ESTABLISHED && !report.verdict().established()) {
        exit = Outcome.NOT_ESTABLISHED;
      }
    } else if (exit == Outcome.ESTABLISHED) {
      exit = Outcome.INFRASTRUCTURE;
    }
    return new ExperimentResult(report, out, json, extra, problems, exit);
  }

  private RigHandle up(String arm, Path stateDir) throws RigException {
    if (b.resume) {
      // A run killed without its teardown (SIGKILL, a power cut) leaves its relay running: stop
      // it, if and only if the pid file proves it is the one this directory's rig started.
      DownResult left = dev.ceiling.rig.Rig.down(stateDir);
      if (left.pid() != null) {
        b.progress.warning("arm '" + arm + "': the interrupted run's relay: " + left.message());
      }
      if (!left.clean()) {
        throw new RigException(
            RigException.Kind.STATE,
            "the interrupted run's relay in " + stateDir + " is still there: " + left.message());
      }
    }
    UpOptions o =
        UpOptions.of(b.profile, arm, stateDir).withReset(true).withOverrides(b.relayOverrides);
    RigHandle h = dev.ceiling.rig.Rig.up(o);
    currentRig.set(h);
    return h;
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
  public static final String PREDICTED_CEILING_KEY = "predicted_worker_ceiling_per_s";

  /** Auto rates need a calibrated ceiling from the relay; this says it had none. */
  private static final class AutoRateException extends Exception {
    private static final long serialVersionUID = 1L;

    AutoRateException(String message) {
      super(message);
    }
  }

  /**
   * The grid as multiples of the ceiling the relay predicted from its own calibration loop, which
   * is measured before and apart from the sweep. It only places the grid; nothing is judged against
   * it.
   */
  private List<Double> autoRates(RigDescriptor rig) throws AutoRateException {
    String v = rig.relayInfo().get(PREDICTED_CEILING_KEY);
    double ceiling;
    try {
      ceiling = v == null ? Double.NaN : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      ceiling = Double.NaN;
    }
    if (!(ceiling > 0) || Double.isInfinite(ceiling)) {
      throw new AutoRateException(
          "automatic rates need the relay's predicted worker ceiling in relay_info."
              + PREDICTED_CEILING_KEY
              + ", got "
              + v
              + "; pass --rates");
    }
    List<Double> out = new ArrayList<>();
    for (double m : b.autoRateMultiples) {
      double r = Math.max(1, Math.round(ceiling * m));
      if (!out.contains(r)) {
        out.add(r);
      }
    }
    return out.stream().sorted().toList();
  }

  private ExperimentIdentity identity(RigDescriptor rig, List<Double> rates) {
    return Identities.of(
        b.profile,
        rig,
        rates,
        b.duration.toNanos() / 1e9,
        b.repeats,
        b.seed,
        b.sweepOptions.measurement());
  }

  /** Fluent configuration; {@link #run()} validates and runs. Not thread-safe. */
  public static final class Builder {
    private RelayProfile profile;
    private List<Double> rates = List.of(250.0, 500.0, 750.0, 1000.0);
    private List<Double> autoRateMultiples;
    private Duration duration = Duration.ofSeconds(4);
    private int repeats = 3;
    private Long seed;
    private Map<String, String> relayOverrides = Map.of();
    private SweepOptions sweepOptions = SweepOptions.defaults(Path.of("journal.jsonl"));
    private VerdictConfig verdictConfig = VerdictConfig.defaults();
    private Path outDir;
    private ExperimentProgress progress = ExperimentProgress.NONE;
    private boolean installShutdownHook = true;
    private boolean resume;
    private Duration shutdownGrace = Duration.ofSeconds(60);
    private final Map<String, Function<ExperimentReport, String>> renderers = new LinkedHashMap<>();

    private Builder() {}

    /** The relay to measure (required). */
    public Builder profile(RelayProfile p) {
      this.profile = Objects.requireNonNull(p, "profile");
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
     * (reported in its descriptor's relay_info), read when the first arm is up. For relays that
     * report one (the reference relay does); the sweep never judges against it.
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

    /** Each cell's measurement window (after the warm-up), > 0. */
    public Builder duration(Duration d) {
      this.duration = Objects.requireNonNull(d, "duration");
      return this;
    }

    /** Repeats per rate, >= 1; the verdict needs >= 2 evidence cells per arm and rate. */
    public Builder repeats(int n) {
      this.repeats = n;
      return this;
    }

    /** Shuffle the cell order with this seed (default: ascending). */
    public Builder shuffled(long orderSeed) {
      this.seed = orderSeed;
      return this;
    }

    /** Overrides of the profile's ports and parameters (e.g. {@code exchange_delay_ms}). */
    public Builder relayOverrides(Map<String, String> o) {
      this.relayOverrides = Map.copyOf(o);
      return this;
    }

    /** Per-cell measurement options (warm-up, connections, timeouts, two-community cells). */
    public Builder sweepOptions(SweepOptions o) {
      this.sweepOptions = Objects.requireNonNull(o, "sweepOptions");
      return this;
    }

    public Builder verdictConfig(VerdictConfig c) {
      this.verdictConfig = Objects.requireNonNull(c, "verdictConfig");
      return this;
    }

    /**
     * Where reports, half-runs, journals and rig state go. Default: a new directory of this run's
     * own, {@link #newRunDirectory newRunDirectory(Path.of("ceiling-reports"))}; a fixed path is
     * refused on the second run (its journals are there) unless {@link #resume} is set.
     */
    public Builder outDir(Path dir) {
      this.outDir = Objects.requireNonNull(dir, "outDir");
      return this;
    }

    public Builder progress(ExperimentProgress p) {
      this.progress = Objects.requireNonNull(p, "progress");
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

    /** Whether Ctrl-C is handled (default true; tests embedding Ceiling may turn it off). */
    public Builder installShutdownHook(boolean install) {
      this.installShutdownHook = install;
      return this;
    }

    /** Validates every option, reporting all problems at once, then runs. */
    public ExperimentResult run() throws ExperimentException {
      List<String> problems = new ArrayList<>();
      if (profile == null) {
        problems.add("profile is required");
      }
      if (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0) || r.isInfinite())) {
        problems.add("rates must be finite numbers > 0, got " + rates);
      }
      if (duration.isZero() || duration.isNegative()) {
        problems.add("duration must be > 0, got " + duration);
      }
      if (repeats < 1) {
        problems.add("repeats must be >= 1, got " + repeats);
      }
      if (!problems.isEmpty()) {
        throw new ExperimentException(String.join("; ", problems), null);
      }
      if (outDir == null) {
        if (resume) {
          throw new ExperimentException("resume needs the out_dir of the run to continue", null);
        }
        try {
          outDir = newRunDirectory(Path.of("ceiling-reports"));
        } catch (IOException e) {
          throw new ExperimentException("cannot create an output directory: " + e, e);
        }
      }
      return new Experiment(this).run();
    }
  }
}
