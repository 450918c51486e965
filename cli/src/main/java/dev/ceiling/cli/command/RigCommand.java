package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Logging;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.StatusResult;
import dev.ceiling.rig.UpOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ceiling rig up|down|status}: the relay under test's lifecycle. */
@Command(
    name = "rig",
    mixinStandardHelpOptions = true,
    header = "Bring the relay under test up or down, or say what runs.",
    subcommands = {RigCommand.Up.class, RigCommand.Down.class, RigCommand.Status.class})
public final class RigCommand {

  /** Options every rig subcommand shares. */
  static class StateDir {
    @Spec CommandSpec spec;

    @Option(
        names = "--state-dir",
        defaultValue = ".ceiling/rig",
        description =
            "Where the pid file, descriptor and relay log live (default: ${DEFAULT-VALUE}).")
    Path stateDir;
  }

  @Command(
      name = "up",
      mixinStandardHelpOptions = true,
      header = "Start the relay under test, or attach to one.",
      description = {
        "The relay runs detached (it outlives this command); the command waits until it is ready"
            + " and prints the descriptor. Stop it with 'ceiling rig down'.",
        "Exit codes: 0 up, 2 bad usage or profile, 3 the relay did not start.",
        ""
      })
  static final class Up extends StateDir implements Callable<Integer> {
    @Option(names = "--profile", defaultValue = "reference", description = "Profile name or file.")
    String profile;

    @Option(names = "--arm", description = "Arm to run (default: the profile's treatment arm).")
    String arm;

    @Option(names = "--reset", description = "Give the relay a fresh database.")
    boolean reset;

    @Option(names = "--skip-relay", description = "Attach to a relay someone else supervises.")
    boolean skipRelay;

    @Option(names = "--param", description = "Override a profile port or parameter, NAME=VALUE.")
    Map<String, String> params = new TreeMap<>();

    @Option(
        names = "--ready-timeout",
        defaultValue = "60",
        description = "Seconds the relay may take to become ready (default: ${DEFAULT-VALUE}).")
    double readyTimeoutS;

    @Option(names = "--verbose", description = "Log the libraries' info lines too.")
    boolean verbose;

    @Override
    public Integer call() {
      new OptionChecks()
          .positive("--ready-timeout", readyTimeoutS, OptionChecks.MAX_WARMUP_S, "seconds")
          .orFail(spec.commandLine());
      Logging.verbose(verbose);
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      try {
        RelayProfile p = RelayProfile.resolve(profile);
        UpOptions o =
            UpOptions.of(p, arm == null ? p.treatmentArm() : arm, stateDir)
                .withReset(reset)
                .withSkipRelay(skipRelay)
                .withOverrides(params)
                // A delay proxy lives in the process that owns it, and this one exits while the
                // relay runs on: the relay reaches its upstreams directly (a note says so).
                .withUpstreamMode(UpOptions.UpstreamMode.DIRECT)
                .withTimeouts(
                    CommandLines.seconds(readyTimeoutS),
                    UpOptions.DEFAULT_PORT_WAIT,
                    UpOptions.DEFAULT_STOP_TIMEOUT);
        // Deliberately not closed: 'rig up' leaves the relay running for later commands.
        @SuppressWarnings("resource")
        RigHandle h = Rig.up(o);
        // The descriptor file keeps the URLs the sweep connects to (owner-only); what is printed
        // carries no credentials.
        out.print(Json.write(Redaction.redact(h.descriptor())));
        out.flush();
        err.println("descriptor: " + h.descriptorFile().toAbsolutePath());
        h.notes().forEach(n -> err.println("note: " + n));
        return ExitCode.ESTABLISHED;
      } catch (IllegalArgumentException e) {
        CommandLines.error(err, e.getMessage());
        return ExitCode.USAGE;
      } catch (RigException e) {
        CommandLines.error(err, e.getMessage());
        return e.kind() == RigException.Kind.BAD_INPUT ? ExitCode.USAGE : ExitCode.INFRASTRUCTURE;
      }
    }
  }

  @Command(
      name = "down",
      mixinStandardHelpOptions = true,
      header = "Stop what this rig started.",
      description = {
        "Exit codes: 0 stopped (or nothing ran); 3 not stopped cleanly: the relay survived"
            + " SIGKILL, or the pid file is unreadable and the relay could not be found through"
            + " the descriptor (every file kept).",
        ""
      })
  static final class Down extends StateDir implements Callable<Integer> {
    @Override
    public Integer call() {
      DownResult r = Rig.down(stateDir);
      spec.commandLine().getOut().println(r.message());
      return r.clean() ? ExitCode.ESTABLISHED : ExitCode.INFRASTRUCTURE;
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      header = "Say what runs, whether it is ours, its ports and health.",
      description = {
        "Exit codes: 0 our relay (or the attached one) runs and answers its health probe; 1 no"
            + " relay of this rig runs (NONE, STALE); 3 it runs but does not answer, or the pid"
            + " file is unreadable so it cannot be told (GARBLED); 2 bad usage.",
        ""
      })
  static final class Status extends StateDir implements Callable<Integer> {
    @Override
    public Integer call() {
      StatusResult s = Rig.status(stateDir);
      spec.commandLine().getOut().println(s.state() + ": " + s.message());
      return exitCode(s);
    }

    /** Distinct per state, so a script can tell "up", "nothing" and "look at it" apart. */
    static int exitCode(StatusResult s) {
      return switch (s.state()) {
        case RUNNING_OURS, ATTACHED ->
            Boolean.TRUE.equals(s.healthy()) ? ExitCode.ESTABLISHED : ExitCode.INFRASTRUCTURE;
        case NONE, STALE -> ExitCode.NOT_ESTABLISHED;
        case GARBLED -> ExitCode.INFRASTRUCTURE;
      };
    }
  }
}
