package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.experiment.DelaySweepPlan;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.generator.SourceAddresses;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.UpOptions;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options the measuring commands ({@code experiment}, {@code sweep}, {@code delay-sweep})
 * share, each declared once as a picocli mixin with its description and its range check, so that a
 * flag has one name, one syntax and one error line wherever it appears.
 *
 * <p>Where a command words an option's help or sets its default differently, it says so in its own
 * resource bundle ({@code ExperimentCommand.properties}, ...): the {@code descriptionKey} below
 * (the option's name without dashes) replaces the description, and {@code NAME.default} the
 * default. picocli looks both up in the bundle of the command that mixes the option in; with no
 * entry, the text and default here hold.
 */
final class MeasuringOptions {
  private MeasuringOptions() {}

  /** {@code --profile} and {@code --param}: which relay, and its parameters changed. */
  static final class Profile {
    @Option(
        names = "--profile",
        defaultValue = "${bundle:profile.default:-reference}",
        descriptionKey = "profile",
        description = "Built-in profile name or profile JSON file (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(
        names = "--param",
        paramLabel = "NAME=VALUE",
        descriptionKey = "param",
        description = "Override a profile port or parameter, NAME=VALUE (repeatable).")
    Map<String, String> params = new TreeMap<>();

    /** The profile named, or a problem naming {@code --profile} and null. */
    RelayProfile resolve(OptionChecks checks) {
      try {
        return RelayProfile.resolve(profile);
      } catch (RigException e) {
        checks.add("--profile: " + e.getMessage());
        return null;
      }
    }

    /**
     * The rig's own rule for overrides, applied to {@code p} before anything starts: a problem
     * naming {@code --param} for a port or parameter the profile does not accept.
     */
    OptionChecks checkParams(OptionChecks checks, RelayProfile p) {
      try {
        UpOptions.of(p, p.treatmentArm(), Path.of(".")).withOverrides(params);
      } catch (IllegalArgumentException e) {
        checks.add("--param: " + e.getMessage());
      }
      return checks;
    }
  }

  /** {@code --duration SECONDS}: the measurement window per cell. */
  static final class Window {
    @Option(
        names = "--duration",
        paramLabel = "SECONDS",
        defaultValue = "${bundle:duration.default:-" + ExperimentCommand.DEFAULT_DURATION_S + "}",
        descriptionKey = "duration",
        description = "Measurement window per cell, seconds (default: ${DEFAULT-VALUE}).")
    double seconds;

    Duration value() {
      return CommandLines.seconds(seconds);
    }

    OptionChecks check(OptionChecks checks) {
      return checks.positive("--duration", seconds, OptionChecks.MAX_DURATION_S, "seconds");
    }
  }

  /** {@code --warmup SECONDS}: load offered before each window. */
  static final class Warmup {
    @Option(
        names = "--warmup",
        paramLabel = "SECONDS",
        defaultValue = "" + ExperimentCommand.DEFAULT_WARMUP_S,
        descriptionKey = "warmup",
        description = "Load offered before each window, seconds (default: ${DEFAULT-VALUE}).")
    double seconds;

    Duration value() {
      return CommandLines.seconds(seconds);
    }

    OptionChecks check(OptionChecks checks) {
      return checks.between("--warmup", seconds, 0, OptionChecks.MAX_WARMUP_S, "seconds");
    }
  }

  /** {@code --repeats N}: cells per point of the grid. */
  static final class Repeats {
    @Option(
        names = "--repeats",
        paramLabel = "N",
        defaultValue = "${bundle:repeats.default:-" + ExperimentCommand.DEFAULT_REPEATS + "}",
        descriptionKey = "repeats",
        description = "Repeats per rate (default: ${DEFAULT-VALUE}).")
    int n;

    /** {@code min} is the command's: a design that fits a variance per point needs two. */
    OptionChecks check(OptionChecks checks, int min) {
      return checks.between("--repeats", n, min, OptionChecks.MAX_REPEATS, "");
    }
  }

  /** {@code --seed}: the cell order's seed; null when a command has no default and none given. */
  static final class Seed {
    @Option(
        names = "--seed",
        defaultValue = "${bundle:seed.default}",
        descriptionKey = "seed",
        description = "Shuffle the cell order with this seed.")
    Long seed;
  }

  /** {@code --out}: the run's directory. */
  static final class Out {
    @Option(
        names = "--out",
        paramLabel = "<out>",
        descriptionKey = "out",
        description = "Output directory (default: ceiling-reports/<timestamp>).")
    Path dir;
  }

  /** {@code --resume DIR}: continue the interrupted run stored in DIR. */
  static final class Resume {
    @Option(
        names = "--resume",
        paramLabel = "DIR",
        descriptionKey = "resume",
        description =
            "Continue the interrupted experiment in DIR (its --out): each arm from its journal,"
                + " no journalled cell measured again. Pass the options the run was started with; any"
                + " difference is refused before a relay starts.")
    Path dir;

    /** The directory a run writes to: the one resumed, else {@code out}'s (may be null). */
    Path or(Out out) {
      return dir != null ? dir : out.dir;
    }

    /** A resumed {@code run} (its word: "run", "sweep") is a directory, and never a new --out. */
    OptionChecks check(OptionChecks checks, Out out, String run) {
      if (dir != null && out.dir != null) {
        checks.add(
            "--resume DIR continues the " + run + " in DIR; it cannot be combined with --out");
      }
      if (dir != null && !Files.isDirectory(dir)) {
        checks.add("--resume: " + dir + " is not a directory");
      }
      return checks;
    }
  }

  /** {@code --quiet}: the answer and warnings only. */
  static final class Quiet {
    @Option(
        names = "--quiet",
        descriptionKey = "quiet",
        description =
            "Print only the answer (stdout) and warnings: no progress, table or file list.")
    boolean quiet;

    /** The command's streams, and whether it prints the answer only. */
    RoundLines.Console console(CommandSpec spec) {
      return new RoundLines.Console(
          spec.commandLine().getOut(), spec.commandLine().getErr(), quiet);
    }
  }

  /** {@code --verbose}: the generator's and the libraries' lines too. */
  static final class Verbose {
    @Option(
        names = "--verbose",
        descriptionKey = "verbose",
        description = "Echo the generator's progress lines and the libraries' info lines.")
    boolean verbose;

    /** The two ask for opposite consoles. */
    OptionChecks check(OptionChecks checks, Quiet quiet) {
      if (quiet.quiet && verbose) {
        checks.add("--quiet and --verbose contradict each other; give one");
      }
      return checks;
    }
  }

  /** {@code --generators N}: each cell's load from N local generator processes. */
  static final class Generators {
    @Option(
        names = "--generators",
        paramLabel = "N",
        defaultValue = "1",
        description =
            "Give each cell's load to N local generator processes (a JVM each) running segments"
                + " 0/N..N-1/N from one start instant, their reports merged exactly; 1 keeps the"
                + " generator in this process (default: ${DEFAULT-VALUE}). See docs/SCALE_OUT.md.")
    int generators;

    OptionChecks check(OptionChecks checks) {
      return checks.between("--generators", generators, 1, SweepOptions.MAX_GENERATORS, "");
    }
  }

  /**
   * {@code --identities N}: signing keys per community; a list is the grid of {@code --design
   * identities}.
   */
  static final class Identities {
    @Option(
        names = "--identities",
        paramLabel = "N",
        split = ",",
        defaultValue = "" + SweepOptions.DEFAULT_IDENTITIES,
        description =
            "Signing keys per community, 1 to "
                + SweepOptions.MAX_IDENTITIES
                + ", the offer spread over them round-robin; part of the run's identity. A list"
                + " (10,100,500) is the grid of --design identities (default: ${DEFAULT-VALUE}).")
    List<Integer> values = List.of(SweepOptions.DEFAULT_IDENTITIES);

    /** The one N of a run that takes one. */
    int value() {
      return values.get(0);
    }

    /** The range check of a run that takes one N, with the other options' problems. */
    OptionChecks check(OptionChecks checks) {
      return check(checks, false);
    }

    /** The range check of each N; a list only when {@code grid}. */
    OptionChecks check(OptionChecks checks, boolean grid) {
      if (!grid && values.size() != 1) {
        checks.add(
            "--identities takes one number here; a list such as 10,100,500 is the grid of --design"
                + " identities, got "
                + values);
      }
      for (int n : values) {
        checks.between("--identities", n, 1, SweepOptions.MAX_IDENTITIES, "");
      }
      return checks;
    }
  }

  /**
   * {@code --source-addresses}: each cell's connections bound round-robin to M loopback source
   * addresses, so the relay sees M clients, as in production, and a per-IP limit meets M addresses
   * instead of one.
   */
  static final class Sources {
    @Option(
        names = SourceAddressSpec.OPTION,
        paramLabel = "ADDRESSES",
        description =
            "Bind each cell's connections round-robin to these loopback source addresses, a"
                + " comma list of addresses and A-B ranges, e.g. 127.0.0.2-127.0.0.65 (all of"
                + " 127.0.0.0/8 is loopback on Linux); each address gets a connection of its own (the"
                + " connections per target rise to M when fewer). M is part of the run's identity"
                + " (default: the OS chooses, one address on loopback).")
    String spec;

    private List<InetAddress> addresses = List.of();

    /**
     * Parses the value and checks the generator's rules for addresses, and that the generator runs
     * in this process, with the other problems.
     */
    OptionChecks check(OptionChecks checks, Generators generators) {
      if (spec == null) {
        return checks;
      }
      addresses = SourceAddressSpec.parse(spec, checks.all());
      // The connections are not known here: the rules that need them are met by apply().
      for (String p : SourceAddresses.problems(addresses, null)) {
        checks.add(SourceAddressSpec.OPTION + ": " + p);
      }
      if (generators.generators > 1) {
        checks.add(
            "--source-addresses needs the generator in this process; it cannot be combined with"
                + " --generators "
                + generators.generators);
      }
      return checks;
    }

    /** The options with the addresses, and at least one connection per address per target. */
    SweepOptions apply(SweepOptions o) {
      if (addresses.isEmpty()) {
        return o;
      }
      return o.withConnectionsPerTarget(Math.max(o.connectionsPerTarget(), addresses.size()))
          .withSourceAddresses(addresses);
    }
  }

  /**
   * {@code --equivalence-margin DELTA} of {@code experiment} and {@code sweep}: declared with the
   * plan, before any cell, so it enters the run's identity. {@code combine} and {@code report} have
   * no such option: they use the margin the halves recorded.
   */
  static final class EquivalenceMargin {
    @Option(
        names = "--equivalence-margin",
        paramLabel = "DELTA",
        description =
            "Also ask whether the treatment's cost (control minus treatment in"
                + " accepted/offered) is within +-DELTA at each rate: a TOST, Holm across rates,"
                + " reading EQUIVALENT WITHIN DELTA, LIMITS or INCONCLUSIVE per rate. A fraction in"
                + " (0, 1), e.g. 0.05; part of the run's identity (default: no equivalence question).")
    Double margin;

    /** The range check, with the other options' problems. */
    OptionChecks check(OptionChecks checks) {
      if (margin != null && !(margin > 0 && margin < 1)) {
        checks.add(
            "--equivalence-margin must be a fraction of accepted/offered in (0, 1), e.g. 0.05, got "
                + margin);
      }
      return checks;
    }
  }

  /** {@code --two-community}: the A/B's report-only cells. */
  static final class TwoCommunity {
    @Option(
        names = "--two-community",
        description = "Also measure report-only two-community cells.")
    boolean on;
  }

  /**
   * {@code --lag-bound DURATION} of the commands that run rounds ({@code experiment}, {@code
   * explain}): the generator self-check's bound, in every round's identity. {@code generate} has
   * its own, worded for one run of the generator.
   */
  static final class LagBound {
    @Option(
        names = "--lag-bound",
        paramLabel = "DURATION",
        defaultValue = "10ms",
        descriptionKey = "lag-bound",
        description =
            "The generator self-check's send-lag p99 bound: a cell above it is generator-bound and"
                + " excluded; part of the run's identity (default: ${DEFAULT-VALUE}, as for"
                + " generate).")
    Duration value = SweepOptions.DEFAULT_SEND_LAG_BOUND;
  }

  /**
   * The delay sweep's grid and its latency offer, {@code --delays MS,...} and {@code --latency-rate
   * EVENTS_PER_S}, of {@code delay-sweep} and {@code explain} (which runs a delay sweep per link).
   */
  static final class DelayGrid {
    @Option(
        names = "--delays",
        split = ",",
        paramLabel = "MS",
        converter = CommandLines.FiniteDouble.class,
        defaultValue = "0,0.5,1,2,3,4",
        descriptionKey = "delays",
        description = "Added round-trip delays, ms, ascending (default: ${DEFAULT-VALUE}).")
    List<Double> delaysMs;

    @Option(
        names = "--latency-rate",
        paramLabel = "EVENTS_PER_S",
        converter = CommandLines.FiniteDouble.class,
        descriptionKey = "latency-rate",
        description =
            "The latency slope: before each cell, a cell at this offer (well below the ceiling,"
                + " and below the sweep's offer) measures the OK latency at the cell's delay; its"
                + " slope against the delay really added counts the round trips on the link on the"
                + " OK path of one event, and a declared count is tested on it. Default: where a"
                + " ramp measured the ceiling (the relay predicts none and no offer is given), 0.1"
                + " x that ceiling (in the plan); otherwise none.")
    Double latencyRate;

    /**
     * The grid's problems and the latency offer's range, which must lie below the sweep's one offer
     * when the command was given one ({@code rate}, named {@code rateOption}).
     */
    OptionChecks check(OptionChecks checks, Double rate, String rateOption) {
      DelaySweepPlan.problemsOfGrid(delaysMs).forEach(q -> checks.add("--" + q));
      if (latencyRate != null) {
        checks.positive("--latency-rate", latencyRate, OptionChecks.MAX_RATE_PER_S, "events/s");
        if (rate != null && !(latencyRate < rate)) {
          checks.add(
              "--latency-rate must be below "
                  + rateOption
                  + " ("
                  + rate
                  + " events/s), got "
                  + latencyRate);
        }
      }
      return checks;
    }
  }
}
