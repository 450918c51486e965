package dev.ceiling.relay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The reference relay's command line: {@code --flag value} pairs and {@code --reset}, read into a
 * {@link ReferenceRelayConfig} with every problem collected before failing.
 */
final class ReferenceRelayArgs {
  private ReferenceRelayArgs() {}

  /**
   * Parses the command line. Every problem (unknown flag, missing value, unparsable number, out of
   * range) is collected and thrown together.
   *
   * @throws ReferenceRelayConfigException listing every problem
   */
  static ReferenceRelayConfig parse(String[] args) {
    List<String> problems = new ArrayList<>();
    Map<String, String> values = new LinkedHashMap<>();
    boolean reset = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        problems.add("expected a --flag, got '" + a + "'");
        continue;
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (name.equals("reset")) {
        reset = value == null || Boolean.parseBoolean(value);
        continue;
      }
      if (!FLAGS.contains(name)) {
        problems.add(
            "unknown flag --" + name + "; known: --reset, --" + String.join(", --", FLAGS));
        if (value == null && i + 1 < args.length && !args[i + 1].startsWith("--")) {
          i++; // skip its value, so the next problem reported is a real one
        }
        continue;
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          problems.add("--" + name + " needs a value");
          continue;
        }
        value = args[++i];
      }
      values.put(name, value);
    }
    Parser p = new Parser(values, problems);
    int port = p.get("port", "0", Integer::parseInt);
    int dbPort = p.get("db-port", "0", Integer::parseInt);
    Optional<Path> dataDir = Optional.ofNullable(values.get("data-dir")).map(Path::of);
    Optional<String> rigId = Optional.ofNullable(values.get("rig-id"));
    List<String> communities =
        p.get(
            "communities",
            "a.localhost,b.localhost",
            s -> {
              List<String> out = new ArrayList<>();
              for (String c : s.split(",", -1)) {
                out.add(c.trim());
              }
              return out;
            });
    Optional<String> defaultCommunity =
        Optional.ofNullable(values.get("default-community")).map(String::trim);
    boolean audit = p.get("audit", "on", ReferenceRelayArgs::onOff);
    int queue = p.get("audit-queue-capacity", "1000", Integer::parseInt);
    double delay = p.get("audit-exchange-delay-ms", "0.0", Double::parseDouble);
    int rate = p.get("limiter-events-per-sec", "10", Integer::parseInt);
    int window = p.get("limiter-window-secs", "5", Integer::parseInt);
    ReferenceRelayConfig.RejectMode mode =
        p.get(
            "limiter-reject-mode",
            "notice",
            s ->
                switch (s) {
                  case "notice" -> ReferenceRelayConfig.RejectMode.NOTICE;
                  case "ok-false" -> ReferenceRelayConfig.RejectMode.OK_FALSE;
                  default -> throw new IllegalArgumentException("expected notice or ok-false");
                });
    boolean verify = p.get("verify-signatures", "true", ReferenceRelayArgs::trueFalse);
    Optional<String> jdbcUrl = Optional.ofNullable(values.get("jdbc-url"));
    boolean syncCommit = p.get("synchronous-commit", "on", ReferenceRelayArgs::onOff);
    int maxFrame = p.get("max-frame-bytes", "131072", Integer::parseInt);
    int calibrationRuns = p.get("calibration-runs", "200", Integer::parseInt);
    int storeCapacity = p.get("store-capacity", "100000", Integer::parseInt);
    double fLimiter = p.get("fault-limiter-unavailable-p", "0", Double::parseDouble);
    double fWrite = p.get("fault-audit-write-error-p", "0", Double::parseDouble);
    long fDies = p.get("fault-worker-dies-after", "0", Long::parseLong);
    double fDrop = p.get("fault-drop-ok-fraction", "0", Double::parseDouble);
    long fClose = p.get("fault-close-after", "0", Long::parseLong);
    long seed = p.get("seed", "1", Long::parseLong);
    // Unparsable values fell back to their defaults, so construction below still runs and adds
    // the range problems: the user sees everything wrong at once.
    // Construct both records collecting their problems together, so a user sees all at once.
    ReferenceRelayConfig.Faults faults = null;
    try {
      faults = new ReferenceRelayConfig.Faults(fLimiter, fWrite, fDies, fDrop, fClose, seed);
    } catch (ReferenceRelayConfigException e) {
      problems.addAll(e.problems());
    }
    try {
      ReferenceRelayConfig c =
          new ReferenceRelayConfig(
              port,
              dbPort,
              dataDir,
              reset,
              rigId,
              communities,
              defaultCommunity,
              audit,
              queue,
              delay,
              rate,
              window,
              mode,
              verify,
              jdbcUrl,
              syncCommit,
              maxFrame,
              calibrationRuns,
              storeCapacity,
              faults == null ? ReferenceRelayConfig.Faults.none() : faults);
      if (!problems.isEmpty()) {
        throw new ReferenceRelayConfigException(problems);
      }
      return c;
    } catch (ReferenceRelayConfigException e) {
      List<String> all = new ArrayList<>(problems);
      for (String s : e.problems()) {
        if (!all.contains(s)) {
          all.add(s);
        }
      }
      throw new ReferenceRelayConfigException(all);
    }
  }

  /** The flags that take a value ({@code --reset} takes none). */
  static final List<String> FLAGS =
      List.of(
          "port",
          "db-port",
          "data-dir",
          "rig-id",
          "communities",
          "default-community",
          "audit",
          "audit-queue-capacity",
          "audit-exchange-delay-ms",
          "limiter-events-per-sec",
          "limiter-window-secs",
          "limiter-reject-mode",
          "verify-signatures",
          "jdbc-url",
          "synchronous-commit",
          "max-frame-bytes",
          "calibration-runs",
          "store-capacity",
          "fault-limiter-unavailable-p",
          "fault-audit-write-error-p",
          "fault-worker-dies-after",
          "fault-drop-ok-fraction",
          "fault-close-after",
          "seed");

  private static boolean onOff(String s) {
    return switch (s) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException("expected on or off");
    };
  }

  private static boolean trueFalse(String s) {
    return switch (s) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }

  static void portRange(List<String> problems, String flag, int port) {
    if (port < 0 || port > 65535) {
      problems.add(flag + " must be in [0, 65535], got " + port);
    }
  }

  private static final class Parser {
    private final Map<String, String> values;
    private final List<String> problems;

    Parser(Map<String, String> values, List<String> problems) {
      this.values = values;
      this.problems = problems;
    }

    <T> T get(String flag, String fallback, Function<String, T> parse) {
      String raw = values.getOrDefault(flag, fallback);
      try {
        return parse.apply(raw.trim());
      } catch (RuntimeException e) {
        problems.add("--" + flag + ": cannot parse '" + raw + "': " + e.getMessage());
        return parse.apply(fallback);
      }
    }
  }
}
