package dev.ceiling.rig;

import dev.ceiling.core.json.Json;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plain entry point for trying the rig by hand; the real CLI ({@code ceiling rig up|down|status},
 * picocli) lives in the cli module and calls {@link Rig} the same way.
 *
 * <pre>
 * RigMain up [--profile reference|FILE] [--arm on|off] [--reset] [--skip-relay]
 *            [--state-dir DIR] [--set NAME=VALUE]... [--ready-timeout-s N]
 * RigMain down [--state-dir DIR]
 * RigMain status [--state-dir DIR]
 * </pre>
 *
 * Exit codes: 0 done, 2 bad usage or input, 3 infrastructure failure.
 */
public final class RigMain {
  private RigMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("usage: RigMain up|down|status [options]");
      return 2;
    }
    String profile = "reference";
    String arm = null;
    boolean reset = false;
    boolean skip = false;
    Path stateDir = Path.of(".ceiling", "rig");
    Map<String, String> overrides = new LinkedHashMap<>();
    Duration ready = UpOptions.DEFAULT_READY_TIMEOUT;
    List<String> bad = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      boolean hasValue = i + 1 < args.length;
      switch (a) {
        case "--profile" -> profile = hasValue ? args[++i] : missing(bad, a);
        case "--arm" -> arm = hasValue ? args[++i] : missing(bad, a);
        case "--state-dir" -> stateDir = Path.of(hasValue ? args[++i] : ".");
        case "--reset" -> reset = true;
        case "--skip-relay" -> skip = true;
        case "--ready-timeout-s" ->
            ready = Duration.ofSeconds(hasValue ? Long.parseLong(args[++i]) : 60);
        case "--set" -> {
          String kv = hasValue ? args[++i] : "";
          int eq = kv.indexOf('=');
          if (eq <= 0) {
            bad.add("--set needs NAME=VALUE, got '" + kv + "'");
          } else {
            overrides.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
        default -> bad.add("unknown option " + a);
      }
    }
    if (!bad.isEmpty()) {
      bad.forEach(err::println);
      return 2;
    }
    switch (args[0]) {
      case "up" -> {
        try {
          RelayProfile p = RelayProfile.resolve(profile);
          UpOptions o =
              UpOptions.of(p, arm == null ? p.treatmentArm() : arm, stateDir)
                  .withReset(reset)
                  .withSkipRelay(skip)
                  .withOverrides(overrides)
                  .withTimeouts(ready, UpOptions.DEFAULT_PORT_WAIT, UpOptions.DEFAULT_STOP_TIMEOUT);
          RigHandle h = Rig.up(o);
          h.notes().forEach(n -> err.println("note: " + n));
          out.print(Json.write(h.descriptor()));
          return 0;
        } catch (IllegalArgumentException e) {
          err.println(e.getMessage());
          return 2;
        } catch (RigException e) {
          err.println(e.getMessage());
          return e.kind() == RigException.Kind.BAD_INPUT ? 2 : 3;
        }
      }
      case "down" -> {
        DownResult r = Rig.down(stateDir);
        err.println(r.outcome() + ": " + r.message());
        return r.clean() ? 0 : 3;
      }
      case "status" -> {
        StatusResult s = Rig.status(stateDir);
        out.println(s.state() + ": " + s.message());
        return 0;
      }
      default -> {
        err.println("unknown command " + args[0] + "; expected up, down or status");
        return 2;
      }
    }
  }

  private static String missing(List<String> bad, String option) {
    bad.add(option + " needs a value");
    return null;
  }
}
