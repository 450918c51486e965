package dev.ceiling.cli.command;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.StatusResult;
import dev.ceiling.rig.UpOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ceiling rig up|down|status}: the relay under test's lifecycle. */
@Command(
    name = "rig",
    mixinStandardHelpOptions = true,
    description = "Bring the relay under test up, take it down, or say what runs.",
    subcommands = {RigCommand.Up.class, RigCommand.Down.class, RigCommand.Status.class})
public final class RigCommand {

  /** Options every rig subcommand shares. */
  static class StateDir {
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
      description = {
        "Start the relay (detached; it outlives this command) or attach to one, wait until it is",
        "ready, and print the descriptor. Stop it with 'ceiling rig down'."
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

    @Override
    public Integer call() {
      try {
        RelayProfile p = RelayProfile.resolve(profile);
        UpOptions o =
            UpOptions.of(p, arm == null ? p.treatmentArm() : arm, stateDir)
                .withReset(reset)
                .withSkipRelay(skipRelay)
                .withOverrides(params)
                .withTimeouts(
                    Duration.ofMillis(Math.round(readyTimeoutS * 1000)),
                    UpOptions.DEFAULT_PORT_WAIT,
                    UpOptions.DEFAULT_STOP_TIMEOUT);
        // Deliberately not closed: 'rig up' leaves the relay running for later commands.
        @SuppressWarnings("resource")
        RigHandle h = Rig.up(o);
        System.out.print(Json.write(h.descriptor()));
        System.err.println("descriptor: " + h.descriptorFile().toAbsolutePath());
        h.notes().forEach(n -> System.err.println("note: " + n));
        return ExitCode.ESTABLISHED;
      } catch (IllegalArgumentException e) {
        System.err.println("error: " + e.getMessage());
        return ExitCode.USAGE;
      } catch (RigException e) {
        System.err.println("error: " + e.getMessage());
        return e.kind() == RigException.Kind.BAD_INPUT ? ExitCode.USAGE : ExitCode.INFRASTRUCTURE;
      }
    }
  }

  @Command(
      name = "down",
      mixinStandardHelpOptions = true,
      description = "Stop what this rig started.")
  static final class Down extends StateDir implements Callable<Integer> {
    @Override
    public Integer call() {
      DownResult r = Rig.down(stateDir);
      System.out.println(r.message());
      return r.clean() ? ExitCode.ESTABLISHED : ExitCode.INFRASTRUCTURE;
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = "What runs, whether it is ours, its ports and health.")
  static final class Status extends StateDir implements Callable<Integer> {
    @Override
    public Integer call() {
      StatusResult s = Rig.status(stateDir);
      System.out.println(s.state() + ": " + s.message());
      return ExitCode.ESTABLISHED;
    }
  }
}
