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
import java.io.PrintWriter;
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

  @Option(names = "--profile", description = "Profile (default: the descriptor's profile name).")
  String profile;

  @Option(
      names = "--rates",
      split = ",",
      required = true,
      paramLabel = "EVENTS_PER_S",
      description = "Offered rates, events/s, comma-separated.")
  List<Double> rates;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      defaultValue = "" + ExperimentCommand.DEFAULT_DURATION_S,
      description = "Measurement window per cell, seconds (default: ${DEFAULT-VALUE}).")
  double durationS;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      defaultValue = "" + ExperimentCommand.DEFAULT_WARMUP_S,
      description = "Load offered before each window, seconds (default: ${DEFAULT-VALUE}).")
  double warmupS;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      defaultValue = "" + ExperimentCommand.DEFAULT_REPEATS,
      description = "Repeats per rate (default: ${DEFAULT-VALUE}).")
  int repeats;

  @Option(
      names = "--order",
      defaultValue = "ascending",
      description = "ascending or shuffled (default: ${DEFAULT-VALUE}).")
  String order;

  @Option(names = "--seed", description = "Shuffle seed (with --order shuffled).")
  Long seed;

  @Option(names = "--two-community", description = "Also measure report-only two-community cells.")
  boolean twoCommunity;

  @Option(names = "--journal", description = "Journal path (default: beside --json).")
  Path journal;

  @Option(names = "--resume", description = "Continue this journal without repeating its cells.")
  Path resume;

  @Mixin GeneratorsOption generators = new GeneratorsOption();

  @Mixin IdentitiesOption identities = new IdentitiesOption();

  @Mixin SourceAddressesOption sources = new SourceAddressesOption();

  @Mixin EquivalenceMarginOption equivalence = new EquivalenceMarginOption();

  @Option(
      names = "--connect-timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description =
          "How long each cell waits for its WebSocket connections (TCP connect and handshake)"
              + " before the sweep fails with exit 3, e.g. 10s (default: ${DEFAULT-VALUE}).")
  Duration connectTimeout;

  @Option(names = "--verbose", description = "Echo the generator's progress lines.")
  boolean verbose;

  @Option(
      names = "--quiet",
      description = "Print only the answer (stdout) and warnings: no progress or file lines.")
  boolean quiet;

  /** The sweep's options but for the journal: its measurement settings enter the identity. */
  private SweepOptions options() {
    return sources.apply(
        SweepOptions.defaults(Path.of("journal.jsonl"))
            .withWarmup(Duration.ofMillis(Math.round(warmupS * 1000)))
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
    OptionChecks checks = new OptionChecks();
    if (quiet && verbose) {
      checks.add("--quiet and --verbose contradict each other; give one");
    }
    equivalence.check(checks);
    sources.check(checks);
    if (sources.spec != null && generators.generators > 1) {
      checks.add(
          "--source-addresses needs the generator in this process; it cannot be combined with"
              + " --generators "
              + generators.generators);
    }
    identities
        .check(
            checks
                .rates("--rates", rates)
                .positive("--duration", durationS, OptionChecks.MAX_DURATION_S, "seconds")
                .between("--warmup", warmupS, 0, OptionChecks.MAX_WARMUP_S, "seconds")
                .between("--repeats", repeats, 1, OptionChecks.MAX_REPEATS, "")
                .between("--generators", generators.generators, 1, SweepOptions.MAX_GENERATORS, "")
                .planSize(rates, durationS, warmupS)
                .files(
                    new OutputPaths()
                        .input("--rig", rigFile)
                        .output("--json", json)
                        .output(
                            resume != null
                                ? "--resume"
                                : journal != null ? "--journal" : "the journal",
                            journalFile)))
        .orFail(spec.commandLine());
    Logging.verbose(verbose);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RigDescriptor rig;
    RelayProfile p;
    ExperimentIdentity identity;
    try {
      rig = Json.read(rigFile, RigDescriptor.class);
      // The same rule as 'rig up': a descriptor is a file anyone can edit.
      List<String> notLoopback = dev.ceiling.core.net.Loopback.problems(rig);
      if (!notLoopback.isEmpty()) {
        throw new IllegalArgumentException(
            "--rig " + rigFile + ": " + String.join("; ", notLoopback));
      }
      p = RelayProfile.resolve(profile != null ? profile : rig.profile());
      if (!"ascending".equals(order) && !"shuffled".equals(order)) {
        throw new IllegalArgumentException(
            "--order must be 'ascending' or 'shuffled', got '" + order + "'");
      }
      if ("shuffled".equals(order) != (seed != null)) {
        throw new IllegalArgumentException(
            "--seed is required with --order shuffled, and only then");
      }
      identity =
          Identities.of(
                  p,
                  rig,
                  rates.stream().sorted().distinct().toList(),
                  durationS,
                  repeats,
                  seed,
                  options().measurement())
              .withEquivalenceMargin(equivalence.margin);
    } catch (ReportFormatException | RigException | IllegalArgumentException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    SweepOptions o =
        options()
            .withJournal(journalFile)
            .withTwoCommunity(twoCommunity)
            .withResume(resume != null)
            .withGenerators(generators.generators)
            .withConnectTimeout(connectTimeout);
    SweepRunner runner =
        new SweepRunner(
            SweepRunner.defaultScraper(), ConsoleProgress.forStderr(err, verbose, quiet));
    // Ctrl-C: stop after the running cell and hold the JVM until the half-run is written.
    ShutdownHook hook =
        ShutdownHook.install(
            "ceiling-sweep-interrupt", runner::interrupt, ShutdownHook.INTERRUPT_GRACE, () -> {});
    SweepRunner.Outcome outcome;
    try {
      outcome = runner.run(rig, identity, o);
    } catch (ReportFormatException e) {
      hook.close();
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    } catch (IOException e) {
      hook.close();
      CommandLines.error(err, "journal " + journalFile + ": " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    try {
      Json.write(json, outcome.half());
    } catch (IOException e) {
      // The journal was written cell by cell before the half-run; it is what a resume reads.
      CommandLines.error(
          err,
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
    } finally {
      hook.close();
    }
    if (!quiet) {
      err.println("half-run written to " + json.toAbsolutePath() + "; journal " + journalFile);
    }
    if (outcome.failure() != null) {
      CommandLines.error(err, outcome.failure().getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    out.println(
        "NOT ESTABLISHED: a half-run is a partial experiment; combine it with the other arm");
    return ExitCode.NOT_ESTABLISHED;
  }
}
