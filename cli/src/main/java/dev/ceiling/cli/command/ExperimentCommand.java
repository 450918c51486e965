package dev.ceiling.cli.command;

import com.google.common.base.Splitter;
import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Logging;
import dev.ceiling.cli.internal.ConsoleProgress;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.IdentitiesRound;
import dev.ceiling.experiment.RoundBuilder;
import dev.ceiling.experiment.ShutdownHook;
import dev.ceiling.experiment.SplitRound;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.VerdictConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ceiling experiment}: the whole A/B experiment, with reports. */
@Command(
    name = "experiment",
    mixinStandardHelpOptions = true,
    header = "Run the whole A/B experiment and write its reports.",
    description = {
      "Rig up the treatment arm, sweep it, rig down; the same for the control arm; combine,"
          + " judge, and write report.json and report.html. With no options: the built-in"
          + " reference relay at its profile's own parameters (an injected audit delay that puts"
          + " its worker ceiling inside the rate grid); the rig's first line prints them.",
      "Exit codes: 0 established, 1 not established or partial, 2 bad usage or input, 3"
          + " infrastructure failure.",
      ""
    })
public final class ExperimentCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The main job's defaults: about three minutes on a 2-core machine. */
  static final String DEFAULT_RATES = "auto";

  /**
   * "auto": multiples of the worker ceiling the relay predicts from its own calibration loop (run
   * at its start, apart from the sweep): two rates below the predicted range's low end, two above
   * its high end (AutoRates).
   */
  static final double[] AUTO_MULTIPLES = {0.5, 0.8, 1.3, 1.8};

  /** The "auto" grid's multiples (a copy), for the end-to-end known-answer test. */
  public static double[] autoMultiples() {
    return AUTO_MULTIPLES.clone();
  }

  static final double DEFAULT_DURATION_S = 4;
  static final int DEFAULT_REPEATS = 3;
  static final double DEFAULT_WARMUP_S = 2;

  @Option(
      names = "--profile",
      defaultValue = "reference",
      description = "Built-in profile name or profile JSON file (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--rates",
      defaultValue = DEFAULT_RATES,
      description = {
        "Offered rates in events/s, comma-separated, or 'auto': 0.5 and 0.8 times the worker",
        "ceiling the relay predicts from its own calibration, 1.3 and 1.8 times the upper end of",
        "its predicted range (default: ${DEFAULT-VALUE})."
      })
  String rates;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      defaultValue = "" + DEFAULT_DURATION_S,
      description = "Measurement window per cell in seconds (default: ${DEFAULT-VALUE}).")
  double durationS;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      defaultValue = "" + DEFAULT_WARMUP_S,
      description =
          "Load offered before each window so saturating cells start with a full queue, seconds"
              + " (default: ${DEFAULT-VALUE}).")
  double warmupS;

  @Option(
      names = "--lag-bound",
      paramLabel = "DURATION",
      defaultValue = "10ms",
      description =
          "The generator self-check's send-lag p99 bound: a cell above it is generator-bound and"
              + " excluded; part of the run's identity (default: ${DEFAULT-VALUE}, as for"
              + " generate).")
  Duration lagBound;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_REPEATS,
      description = "Repeats per rate (default: ${DEFAULT-VALUE}).")
  int repeats;

  @Option(names = "--seed", description = "Shuffle the cell order with this seed.")
  Long seed;

  @Option(
      names = "--param",
      paramLabel = "NAME=VALUE",
      description = "Override a profile port or parameter, NAME=VALUE (repeatable).")
  Map<String, String> params = new TreeMap<>();

  @Option(names = "--two-community", description = "Also measure report-only two-community cells.")
  boolean twoCommunity;

  @Mixin DesignOption design = new DesignOption();

  @Mixin GeneratorsOption generators = new GeneratorsOption();

  @Mixin IdentitiesOption identities = new IdentitiesOption();

  @Mixin SourceAddressesOption sources = new SourceAddressesOption();

  @Mixin EquivalenceMarginOption equivalence = new EquivalenceMarginOption();

  @Option(names = "--out", description = "Output directory (default: ceiling-reports/<timestamp>).")
  Path out;

  @Mixin ThresholdOptions thresholds = new ThresholdOptions();

  @Option(
      names = "--resume",
      paramLabel = "DIR",
      description = {
        "Continue the interrupted experiment in DIR (its --out): each arm from its journal,",
        "no journalled cell measured again. Pass the options the run was started with; any",
        "difference is refused before a relay starts."
      })
  Path resume;

  @Option(
      names = "--verbose",
      description = "Echo the generator's progress lines and the libraries' info lines.")
  boolean verbose;

  @Option(
      names = "--quiet",
      description = "Print only the answer (stdout) and warnings: no progress, table or file list.")
  boolean quiet;

  @Override
  public Integer call() {
    OptionChecks checks =
        new OptionChecks()
            .positive("--duration", durationS, OptionChecks.MAX_DURATION_S, "seconds")
            .between("--warmup", warmupS, 0, OptionChecks.MAX_WARMUP_S, "seconds")
            .between("--repeats", repeats, 1, OptionChecks.MAX_REPEATS, "")
            .between("--generators", generators.generators, 1, SweepOptions.MAX_GENERATORS, "");
    identities.check(checks, design.is(DesignOption.Design.identities));
    sources.check(checks);
    if (sources.spec != null && generators.generators > 1) {
      checks.add(
          "--source-addresses needs the generator in this process; it cannot be combined with"
              + " --generators "
              + generators.generators);
    }
    equivalence.check(checks);
    if (repeats == 1 && !design.is(DesignOption.Design.identities)) {
      // One cell per rate has no variance: no rate could ever be comparable, so the whole sweep
      // would run only to fail NO_COMPARABLE_RATE.
      checks.add(
          "--repeats must be at least 2 (a variance needs two cells per rate and arm), got 1");
    }
    List<Double> fixedRates = null;
    if (!"auto".equals(rates)) {
      try {
        fixedRates = parse(rates);
        checks.rates("--rates", fixedRates).planSize(fixedRates, durationS, warmupS);
      } catch (RuntimeException e) {
        checks.add("--rates must be 'auto' or numbers like 100,200, got '" + rates + "'");
      }
    }
    VerdictConfig verdictConfig = thresholds.config(checks);
    if (quiet && verbose) {
      checks.add("--quiet and --verbose contradict each other; give one");
    }
    if (resume != null && out != null) {
      checks.add("--resume DIR continues the run in DIR; it cannot be combined with --out");
    }
    if (resume != null && !java.nio.file.Files.isDirectory(resume)) {
      checks.add("--resume: " + resume + " is not a directory");
    }
    design.check(checks, twoCommunity, resume != null, fixedRates);
    checks.orFail(spec.commandLine());
    Logging.verbose(verbose);
    PrintWriter err = spec.commandLine().getErr();
    RelayProfile p;
    try {
      p = RelayProfile.resolve(profile);
    } catch (RigException e) {
      throw CommandLines.usage(spec.commandLine(), "--profile: " + e.getMessage());
    }
    // The profile's parameters are the defaults, as for every API user; only --param changes them.
    Map<String, String> overrides = new TreeMap<>(params);
    try {
      // The rig's own rule for overrides, checked before anything starts.
      UpOptions.of(p, p.treatmentArm(), Path.of(".")).withOverrides(overrides);
    } catch (IllegalArgumentException e) {
      throw CommandLines.usage(spec.commandLine(), "--param: " + e.getMessage());
    }
    if (design.is(DesignOption.Design.split)) {
      return split(p, overrides, fixedRates, verdictConfig);
    }
    if (design.is(DesignOption.Design.identities)) {
      return identitiesRound(p, overrides, fixedRates, verdictConfig);
    }
    Experiment.Builder b =
        Experiment.builder()
            .profile(p)
            .duration(Duration.ofMillis(Math.round(durationS * 1000)))
            .repeats(repeats)
            .relayOverrides(overrides)
            .sweepOptions(sweepOptions())
            .verdictConfig(verdictConfig)
            .resume(resume != null)
            .alsoRender("report.html", HtmlReport::render)
            .progress(ConsoleProgress.forStderr(err, verbose, quiet));
    // Without --out or --resume the experiment names a new directory of the run's own
    // (Experiment.newRunDirectory under ceiling-reports), as it does for every API user.
    if (resume != null || out != null) {
      b.outDir(resume != null ? resume : out);
    }
    if (seed != null) {
      b.shuffled(seed);
    }
    if (equivalence.margin != null) {
      b.equivalenceMargin(equivalence.margin);
    }
    if (fixedRates == null) {
      b.ratesFromCalibration(AUTO_MULTIPLES);
    } else {
      b.rates(fixedRates);
    }
    // On Ctrl-C the JVM exits once every shutdown hook has returned. The experiment's own hook
    // returns when run() does; this one holds the exit until the summary and the "written to"
    // lines are printed and flushed, so an interrupted run still says what it wrote.
    // SIGTERM ends the JVM through the same hooks as Ctrl-C, but the JVM would then exit 143;
    // once everything is written and printed the hook exits 130, as for Ctrl-C.
    ShutdownHook holdExit =
        ShutdownHook.install(
            "ceiling-print-before-exit",
            () -> {},
            PRINT_GRACE,
            () -> Runtime.getRuntime().halt(ExitCode.INTERRUPTED));
    try {
      ExperimentResult r;
      try {
        r = b.run();
      } catch (ExperimentException e) {
        CommandLines.error(err, e.getMessage());
        return ExitCode.USAGE;
      }
      int code =
          quiet
              ? ExperimentLines.printAnswer(r, spec.commandLine().getOut())
              : ExperimentLines.print(r, spec.commandLine().getOut(), err);
      spec.commandLine().getOut().flush();
      err.flush();
      return code;
    } finally {
      holdExit.close();
    }
  }

  /**
   * Each cell's measurement, the same for every design: a round changes what it varies (the split
   * round its communities, the defaults round its identities per cell).
   */
  private SweepOptions sweepOptions() {
    return sources.apply(
        SweepOptions.defaults(Path.of("journal.jsonl"))
            .withWarmup(Duration.ofMillis(Math.round(warmupS * 1000)))
            .withSendLagBound(lagBound)
            .withTwoCommunity(twoCommunity)
            .withGenerators(generators.generators)
            .withIdentities(identities.value()));
  }

  /** A one-relay round's settings from this command's options, as the A/B takes them. */
  private <B extends RoundBuilder<B>> B round(
      B b, RelayProfile p, Map<String, String> overrides, VerdictConfig verdictConfig) {
    b.profile(p)
        .duration(Duration.ofMillis(Math.round(durationS * 1000)))
        .repeats(repeats)
        .relayOverrides(overrides)
        .sweepOptions(sweepOptions())
        .verdictConfig(verdictConfig)
        .progress(ConsoleProgress.forStderr(spec.commandLine().getErr(), verbose, quiet));
    // Without --out the round names a new directory of its own, as the A/B does.
    if (out != null) {
      b.outDir(out);
    }
    if (seed != null) {
      b.shuffled(seed);
    }
    return b;
  }

  /** The split round with this command's options. */
  private int split(
      RelayProfile p,
      Map<String, String> overrides,
      List<Double> fixedRates,
      VerdictConfig verdictConfig) {
    SplitRound.Builder b = round(SplitRound.builder(), p, overrides, verdictConfig);
    if (equivalence.margin != null) {
      b.equivalenceMargin(equivalence.margin);
    }
    if (fixedRates == null) {
      b.ratesFromLockCalibration(SplitRun.AUTO_LOCK_MULTIPLES);
    } else {
      b.rates(fixedRates);
    }
    return SplitRun.run(b, quiet, spec.commandLine().getOut(), spec.commandLine().getErr());
  }

  /** The defaults round with this command's options. */
  private int identitiesRound(
      RelayProfile p,
      Map<String, String> overrides,
      List<Double> fixedRates,
      VerdictConfig verdictConfig) {
    IdentitiesRound.Builder b =
        round(IdentitiesRound.builder(), p, overrides, verdictConfig).identities(identities.values);
    if (fixedRates != null) {
      b.rate(fixedRates.get(0));
    }
    return IdentitiesRun.run(b, quiet, spec.commandLine().getOut(), spec.commandLine().getErr());
  }

  /** Longer than the experiment's own shutdown grace (the running cell plus the teardown). */
  static final Duration PRINT_GRACE = Duration.ofSeconds(90);

  /** Comma-separated finite numbers; IllegalArgumentException on anything else. */
  static List<Double> parse(String csv) {
    return Splitter.on(',')
        .trimResults()
        .splitToStream(csv)
        .map(CommandLines.FINITE_DOUBLE::convert)
        .toList();
  }
}
