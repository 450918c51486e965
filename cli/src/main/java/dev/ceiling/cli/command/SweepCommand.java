package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Logging;
import dev.ceiling.cli.internal.ConsoleProgress;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.experiment.Identities;
import dev.ceiling.experiment.ShutdownHook;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.experiment.SweepRunner;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RigException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ceiling sweep}: one arm's half-run against a relay the rig brought up. */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    resourceBundle = "dev.ceiling.cli.command.SweepCommand",
    header = "Measure one arm's half-run against a relay that is up.",
    description = {
      "For each rate and repeat: drain, warm up, scrape, offer load, scrape. A half-run is a"
          + " partial experiment by construction: its JSON is written, then the exit code is 1."
          + " Combine two halves with 'ceiling combine'.",
      "Exit codes: 1 the half-run was written, 2 bad usage or input, 3 infrastructure failure.",
      ""
    })
public final class SweepCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--rig",
      required = true,
      paramLabel = "FILE",
      description = "The descriptor 'rig up' wrote.")
  Path rigFile;

  @Option(names = "--json", required = true, description = "Where to write the half-run.")
  Path json;

  // Not MeasuringOptions.Profile: the relay is up already, its profile named by the descriptor.
  @Option(names = "--profile", description = "Profile (default: the descriptor's profile name).")
  String profile;

  @Option(
      names = "--rates",
      split = ",",
      required = true,
      paramLabel = "EVENTS_PER_S",
      description = "Offered rates, events/s, comma-separated.")
  List<Double> rates;

  @Mixin MeasuringOptions.Window duration = new MeasuringOptions.Window();

  @Mixin MeasuringOptions.Warmup warmup = new MeasuringOptions.Warmup();

  @Mixin MeasuringOptions.Repeats repeats = new MeasuringOptions.Repeats();

  @Option(
      names = "--order",
      defaultValue = "ascending",
      description = "ascending or shuffled (default: ${DEFAULT-VALUE}).")
  String order;

  @Mixin MeasuringOptions.Seed seed = new MeasuringOptions.Seed();

  @Mixin MeasuringOptions.TwoCommunity twoCommunity = new MeasuringOptions.TwoCommunity();

  @Option(names = "--journal", description = "Journal path (default: beside --json).")
  Path journal;

  // Not MeasuringOptions.Resume: a sweep continues a journal file, not a run's directory.
  @Option(names = "--resume", description = "Continue this journal without repeating its cells.")
  Path resume;

  @Mixin MeasuringOptions.Generators generators = new MeasuringOptions.Generators();

  @Mixin MeasuringOptions.Identities identities = new MeasuringOptions.Identities();

  @Mixin MeasuringOptions.Sources sources = new MeasuringOptions.Sources();

  @Mixin MeasuringOptions.EquivalenceMargin equivalence = new MeasuringOptions.EquivalenceMargin();

  @Option(
      names = "--connect-timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description =
          "How long each cell waits for its WebSocket connections (TCP connect and handshake)"
              + " before the sweep fails with exit 3, e.g. 10s (default: ${DEFAULT-VALUE}).")
  Duration connectTimeout;

  @Mixin MeasuringOptions.Verbose verbose = new MeasuringOptions.Verbose();

  @Mixin MeasuringOptions.Quiet quiet = new MeasuringOptions.Quiet();

  /** Every bad argument at once, before anything is read: one usage line (exit 2) naming each. */
  private void check(Path journalFile) {
    OptionChecks checks = new OptionChecks();
    verbose.check(checks, quiet);
    equivalence.check(checks);
    sources.check(checks, generators);
    checks.rates("--rates", rates);
    duration.check(checks);
    warmup.check(checks);
    repeats.check(checks, 1);
    generators.check(checks);
    checks.planSize(rates, duration.seconds, warmup.seconds);
    checks.files(
        new OutputPaths()
            .input("--rig", rigFile)
            .output("--json", json)
            .output(
                resume != null ? "--resume" : journal != null ? "--journal" : "the journal",
                journalFile));
    identities.check(checks);
    if (!"ascending".equals(order) && !"shuffled".equals(order)) {
      checks.add("--order must be 'ascending' or 'shuffled', got '" + order + "'");
    } else if ("shuffled".equals(order) != (seed.seed != null)) {
      checks.add("--seed is required with --order shuffled, and only then");
    }
    checks.orFail(spec.commandLine());
  }

  /** The descriptor, refused unless every address in it is this machine's. */
  private RigDescriptor rig() throws ReportFormatException {
    RigDescriptor rig = Json.read(rigFile, RigDescriptor.class);
    // The same rule as 'rig up': a descriptor is a file anyone can edit.
    List<String> notLoopback = dev.ceiling.core.net.Loopback.problems(rig);
    if (!notLoopback.isEmpty()) {
      throw new IllegalArgumentException(
          "--rig " + rigFile + ": " + String.join("; ", notLoopback));
    }
    return rig;
  }

  /** The half-run's identity: the plan, the relay described by {@code rig}, the measurement. */
  private ExperimentIdentity identity(RigDescriptor rig) throws RigException {
    RelayProfile p = RelayProfile.resolve(profile != null ? profile : rig.profile());
    return Identities.of(
            p,
            rig,
            rates.stream().sorted().distinct().toList(),
            duration.seconds,
            repeats.n,
            seed.seed,
            options().measurement())
        .withEquivalenceMargin(equivalence.margin);
  }

  /** The sweep's options but for the journal: its measurement settings enter the identity. */
  private SweepOptions options() {
    return sources.apply(
        SweepOptions.defaults(Path.of("journal.jsonl"))
            .withWarmup(warmup.value())
            .withIdentities(identities.value()));
  }

  /** The journal: the one resumed, the one named, or the half-run's name with ".jsonl". */
  private Path journalFile() {
    return resume != null
        ? resume
        : journal != null
            ? journal
            : Path.of(json.toString().replaceAll("\\.json$", "") + ".jsonl");
  }

  @Override
  public Integer call() {
    Path journalFile = journalFile();
    check(journalFile);
    Logging.verbose(verbose.verbose);
    RoundLines.Console c = quiet.console(spec);
    RigDescriptor rig;
    ExperimentIdentity identity;
    try {
      rig = rig();
      identity = identity(rig);
    } catch (ReportFormatException | RigException | IllegalArgumentException e) {
      CommandLines.error(c.err(), e.getMessage());
      return ExitCode.USAGE;
    }
    SweepRunner runner =
        new SweepRunner(
            SweepRunner.defaultScraper(),
            ConsoleProgress.forStderr(c.err(), verbose.verbose, c.quiet()));
    // Ctrl-C: stop after the running cell and hold the JVM until the half-run is written.
    ShutdownHook hook =
        ShutdownHook.install(
            "ceiling-sweep-interrupt", runner::interrupt, ShutdownHook.INTERRUPT_GRACE, () -> {});
    try {
      return measure(runner, rig, identity, journalFile, c);
    } finally {
      hook.close();
    }
  }

  /** Measures every cell, writes the half-run and says so; the exit code. */
  private int measure(
      SweepRunner runner,
      RigDescriptor rig,
      ExperimentIdentity identity,
      Path journalFile,
      RoundLines.Console c) {
    SweepOptions o =
        options()
            .withJournal(journalFile)
            .withTwoCommunity(twoCommunity.on)
            .withResume(resume != null)
            .withGenerators(generators.generators)
            .withConnectTimeout(connectTimeout);
    SweepRunner.Outcome outcome;
    try {
      outcome = runner.run(rig, identity, o);
    } catch (ReportFormatException e) {
      CommandLines.error(c.err(), e.getMessage());
      return ExitCode.USAGE;
    } catch (IOException e) {
      CommandLines.error(c.err(), "journal " + journalFile + ": " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    try {
      Json.write(json, outcome.half());
    } catch (IOException e) {
      // The journal was written cell by cell before the half-run; it is what a resume reads.
      CommandLines.error(
          c.err(),
          "cannot write the half-run "
              + json
              + ": "
              + e.getMessage()
              + "; the journal "
              + journalFile
              + " keeps every cell measured so far, and the same sweep with --resume "
              + journalFile
              + " continues from there");
      return ExitCode.INFRASTRUCTURE;
    }
    if (!c.quiet()) {
      c.err().println("half-run written to " + json.toAbsolutePath() + "; journal " + journalFile);
    }
    if (outcome.failure() != null) {
      CommandLines.error(c.err(), outcome.failure().getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    c.out()
        .println(
            "NOT ESTABLISHED: a half-run is a partial experiment; combine it with the other arm");
    return ExitCode.NOT_ESTABLISHED;
  }
}
