package dev.ceiling.cli.command;

import com.google.common.base.Splitter;
import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.Logging;
import dev.ceiling.cli.internal.ConsoleProgress;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.IdentitiesRound;
import dev.ceiling.experiment.RoundBuilder;
import dev.ceiling.experiment.SplitRound;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
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
    resourceBundle = "dev.ceiling.cli.command.ExperimentCommand",
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

  @Mixin MeasuringOptions.Profile profile = new MeasuringOptions.Profile();

  @Option(
      names = "--rates",
      defaultValue = DEFAULT_RATES,
      description =
          "Offered rates in events/s, comma-separated, or 'auto': 0.5 and 0.8 times the worker"
              + " ceiling the relay predicts from its own calibration, 1.3 and 1.8 times the upper end"
              + " of its predicted range (default: ${DEFAULT-VALUE}). Where the relay predicts none, a"
              + " ramp of rising offers measures its ceiling first (ramp.json).")
  String rates;

  @Mixin MeasuringOptions.Window duration = new MeasuringOptions.Window();

  @Mixin MeasuringOptions.Warmup warmup = new MeasuringOptions.Warmup();

  @Mixin MeasuringOptions.LagBound lagBound = new MeasuringOptions.LagBound();

  @Mixin MeasuringOptions.Repeats repeats = new MeasuringOptions.Repeats();

  @Mixin MeasuringOptions.Seed seed = new MeasuringOptions.Seed();

  @Mixin MeasuringOptions.TwoCommunity twoCommunity = new MeasuringOptions.TwoCommunity();

  @Mixin DesignOption design = new DesignOption();

  @Mixin MeasuringOptions.Generators generators = new MeasuringOptions.Generators();

  @Mixin MeasuringOptions.Identities identities = new MeasuringOptions.Identities();

  @Mixin MeasuringOptions.Sources sources = new MeasuringOptions.Sources();

  @Mixin MeasuringOptions.EquivalenceMargin equivalence = new MeasuringOptions.EquivalenceMargin();

  @Mixin MeasuringOptions.Out out = new MeasuringOptions.Out();

  @Mixin ThresholdOptions thresholds = new ThresholdOptions();

  @Mixin MeasuringOptions.Resume resume = new MeasuringOptions.Resume();

  @Mixin MeasuringOptions.Verbose verbose = new MeasuringOptions.Verbose();

  @Mixin MeasuringOptions.Quiet quiet = new MeasuringOptions.Quiet();

  @Override
  public Integer call() {
    Checked c = check();
    Logging.verbose(verbose.verbose);
    RoundLines.Console console = quiet.console(spec);
    return switch (design.design) {
      case ab ->
          RoundLines.holdingExit(
              () ->
                  RoundLines.run(
                      experiment(c)::run, console, r -> RoundLines.experiment(r, console)));
      case split -> RoundLines.run(split(c)::run, console, r -> RoundLines.split(r, console));
      case identities ->
          RoundLines.run(identitiesRound(c)::run, console, r -> RoundLines.identities(r, console));
    };
  }

  /** What the checks give a run: the profile, the fixed rates (null for auto), the verdict's. */
  private record Checked(RelayProfile profile, List<Double> fixedRates, VerdictConfig verdict) {}

  /** Every bad argument at once, before anything starts: one usage line (exit 2) naming each. */
  private Checked check() {
    OptionChecks checks = new OptionChecks();
    duration.check(checks);
    warmup.check(checks);
    repeats.check(checks, 1);
    generators.check(checks);
    identities.check(checks, design.is(DesignOption.Design.identities));
    sources.check(checks, generators);
    equivalence.check(checks);
    if (repeats.n == 1 && !design.is(DesignOption.Design.identities)) {
      // One cell per rate has no variance: no rate could ever be comparable, so the whole sweep
      // would run only to fail NO_COMPARABLE_RATE.
      checks.add(
          "--repeats must be at least 2 (a variance needs two cells per rate and arm), got 1");
    }
    List<Double> fixedRates = null;
    if (!"auto".equals(rates)) {
      try {
        fixedRates = parse(rates);
        checks.rates("--rates", fixedRates).planSize(fixedRates, duration.seconds, warmup.seconds);
      } catch (RuntimeException e) {
        checks.add("--rates must be 'auto' or numbers like 100,200, got '" + rates + "'");
      }
    }
    VerdictConfig verdictConfig = thresholds.config(checks);
    verbose.check(checks, quiet);
    resume.check(checks, out, "run");
    design.check(checks, twoCommunity.on, resume.dir != null, fixedRates);
    RelayProfile p = profile.resolve(checks);
    if (p != null) {
      profile.checkParams(checks, p);
    }
    checks.orFail(spec.commandLine());
    return new Checked(p, fixedRates, verdictConfig);
  }

  /** The A/B experiment with this command's options. */
  private Experiment.Builder experiment(Checked c) {
    Experiment.Builder b =
        round(Experiment.builder(), c)
            .resume(resume.dir != null)
            .alsoRender("report.html", HtmlReport::render);
    if (resume.dir != null) {
      b.outDir(resume.dir);
    }
    if (equivalence.margin != null) {
      b.equivalenceMargin(equivalence.margin);
    }
    if (c.fixedRates() == null) {
      b.ratesFromCalibration(AUTO_MULTIPLES);
    } else {
      b.rates(c.fixedRates());
    }
    return b;
  }

  /** The profile's parameters are the defaults, as for every API user; --param changes them. */
  private Map<String, String> overrides() {
    return new TreeMap<>(profile.params);
  }

  private ConsoleProgress progress() {
    return ConsoleProgress.forStderr(spec.commandLine().getErr(), verbose.verbose, quiet.quiet);
  }

  /**
   * Each cell's measurement, the same for every design: a round changes what it varies (the split
   * round its communities, the defaults round its identities per cell).
   */
  private SweepOptions sweepOptions() {
    return sources.apply(
        SweepOptions.defaults(Path.of("journal.jsonl"))
            .withWarmup(warmup.value())
            .withSendLagBound(lagBound.value)
            .withTwoCommunity(twoCommunity.on)
            .withGenerators(generators.generators)
            .withIdentities(identities.value()));
  }

  /** A one-relay round's settings (the A/B's too) from this command's options. */
  private <B extends RoundBuilder<B>> B round(B b, Checked c) {
    b.profile(c.profile())
        .duration(duration.value())
        .repeats(repeats.n)
        .relayOverrides(overrides())
        .sweepOptions(sweepOptions())
        .verdictConfig(c.verdict())
        .progress(progress());
    // Without --out the round names a new directory of its own, as the A/B does.
    if (out.dir != null) {
      b.outDir(out.dir);
    }
    if (seed.seed != null) {
      b.shuffled(seed.seed);
    }
    return b;
  }

  /** The split round with this command's options. */
  private SplitRound.Builder split(Checked c) {
    SplitRound.Builder b = round(SplitRound.builder(), c);
    if (equivalence.margin != null) {
      b.equivalenceMargin(equivalence.margin);
    }
    return c.fixedRates() == null
        ? b.ratesFromLockCalibration(RoundLines.AUTO_LOCK_MULTIPLES)
        : b.rates(c.fixedRates());
  }

  /** The defaults round with this command's options. */
  private IdentitiesRound.Builder identitiesRound(Checked c) {
    IdentitiesRound.Builder b = round(IdentitiesRound.builder(), c).identities(identities.values);
    return c.fixedRates() == null ? b : b.rate(c.fixedRates().get(0));
  }

  /** Comma-separated finite numbers; IllegalArgumentException on anything else. */
  static List<Double> parse(String csv) {
    return Splitter.on(',')
        .trimResults()
        .splitToStream(csv)
        .map(CommandLines.FINITE_DOUBLE::convert)
        .toList();
  }
}
