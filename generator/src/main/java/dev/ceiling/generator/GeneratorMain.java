package dev.ceiling.generator;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Stand-alone generator: {@code GeneratorMain --duration 10s --target
 * url=ws://127.0.0.1:7777,host=a.localhost:7777,rate=500,conns=4,kind=1,tag=h:bench,identities=8
 * [--target ...] [--segment i/N] [--start-at 2026-12-01T06:30:00Z] [--json FILE]}. One JSON report
 * on stdout (or in FILE), progress on stderr.
 *
 * <p>Exit codes: 0 the run completed (read generator_bound in the report), 2 bad input (one line
 * naming every bad field, before anything connects), 3 infrastructure failure (a connection failed
 * before the clock, signing failed, the report could not be written).
 */
public final class GeneratorMain {
  static final Set<String> TARGET_KEYS =
      Set.of("url", "host", "rate", "conns", "kind", "tag", "identities", "content", "community");

  static final String USAGE =
      "usage: generate --duration DURATION --target url=ws://HOST:PORT/,rate=R[,host=H][,conns=N]"
          + "[,kind=K][,tag=NAME:VALUE]...[,identities=N][,content=BYTES][,community=NAME]"
          + " [--target ...] [--segment i/N] [--start-at INSTANT] [--inflight-cap N] [--grace-period DURATION]"
          + " [--connect-timeout DURATION] [--max-frame-bytes N] [--sender-threads N] [--lag-bound DURATION] [--warmup DURATION]"
          + " [--allow-remote] [--json FILE]";

  private GeneratorMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs with the given streams and returns the exit code; never calls System.exit. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> problems = new ArrayList<>();
    GeneratorConfig.Builder b = GeneratorConfig.builder();
    Path json = null;
    int targets = 0;
    boolean sawDuration = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        out.println(USAGE);
        return 0;
      }
      if (a.equals("--allow-remote")) {
        b.allowRemote(true);
        continue;
      }
      if (!a.startsWith("--")) {
        problems.add("unexpected argument '" + a + "'");
        continue;
      }
      if (i + 1 >= args.length) {
        problems.add(a + " needs a value");
        continue;
      }
      String v = args[++i];
      switch (a) {
        case "--duration" -> {
          sawDuration = true;
          Duration d = duration("--duration", v, problems);
          if (d != null) {
            b.duration(d);
          }
        }
        case "--grace-period" -> {
          Duration d = duration("--grace-period", v, problems);
          if (d != null) {
            b.gracePeriod(d);
          }
        }
        case "--connect-timeout" -> {
          Duration d = duration("--connect-timeout", v, problems);
          if (d != null) {
            b.connectTimeout(d);
          }
        }
        case "--warmup" -> {
          Duration d = duration("--warmup", v, problems);
          if (d != null) {
            b.warmup(d);
          }
        }
        case "--lag-bound" -> {
          Duration d = duration("--lag-bound", v, problems);
          if (d != null) {
            b.sendLagBound(d);
          }
        }
        case "--segment" -> {
          try {
            b.segment(Segment.parse(v));
          } catch (IllegalArgumentException e) {
            problems.add("--segment: " + e.getMessage());
          }
        }
        case "--start-at" -> {
          try {
            b.startAt(StartInstant.parse(v));
          } catch (IllegalArgumentException e) {
            problems.add("--start-at " + e.getMessage());
          }
        }
        case "--inflight-cap" -> b.inflightCapPerConnection(integer("--inflight-cap", v, problems));
        case "--max-frame-bytes" -> b.maxFrameBytes(integer("--max-frame-bytes", v, problems));
        case "--sender-threads" -> b.senderThreads(integer("--sender-threads", v, problems));
        case "--json" -> json = Path.of(v);
        case "--target" -> {
          targets++;
          TargetLoad l = parseTarget(targets, v, problems);
          if (l != null) {
            b.load(l);
          }
        }
        default -> problems.add("unknown option " + a);
      }
    }
    if (!sawDuration) {
      problems.add("--duration is required");
    }
    if (targets == 0) {
      problems.add("at least one --target is required");
    }
    if (problems.isEmpty()) {
      problems.addAll(b.problems());
    }
    if (!problems.isEmpty()) {
      err.println("error: " + String.join("; ", problems));
      return 2;
    }
    GeneratorConfig cfg = b.build();
    GeneratorReport report;
    try {
      report = Generator.run(cfg, line -> err.println("generate: " + line));
    } catch (GeneratorException e) {
      err.println("error: " + e.getMessage());
      return e.kind() == GeneratorException.Kind.CONFIG ? 2 : 3;
    }
    try {
      if (json != null) {
        Json.write(json, report);
      } else {
        out.print(Json.write(report));
        out.flush();
      }
    } catch (IOException e) {
      err.println("error: cannot write report to " + json + ": " + e);
      return 3;
    }
    if (report.generatorBound()) {
      err.println("generate: GENERATOR BOUND: " + report.generatorBoundReason());
    }
    return 0;
  }

  /**
   * Parses one target spec; adds every problem (prefixed "target N: ") and returns null when there
   * is any.
   */
  static TargetLoad parseTarget(int n, String spec, List<String> problems) {
    String p = "target " + n + ": ";
    int before = problems.size();
    String url = null;
    String host = null;
    String community = null;
    Double rate = null;
    int conns = 1;
    int kind = 1;
    int identities = 1;
    int content = 64;
    List<List<String>> tags = new ArrayList<>();
    for (String part : spec.split(",", -1)) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        problems.add(p + "expected key=value, got '" + part + "'");
        continue;
      }
      String k = part.substring(0, eq).trim();
      String v = part.substring(eq + 1).trim();
      switch (k) {
        case "url" -> url = v;
        case "host" -> host = v;
        case "community" -> community = v;
        case "rate" -> {
          try {
            rate = Double.parseDouble(v);
          } catch (NumberFormatException e) {
            problems.add(p + "rate must be a number of events/s, got '" + v + "'");
          }
        }
        case "conns" -> conns = integer(p + "conns", v, problems);
        case "kind" -> kind = integer(p + "kind", v, problems);
        case "identities" -> identities = integer(p + "identities", v, problems);
        case "content" -> content = integer(p + "content", v, problems);
        case "tag" -> {
          List<String> tag = List.of(v.split(":", -1));
          if (tag.get(0).isEmpty() || tag.size() < 2) {
            problems.add(p + "tag must look like NAME:VALUE (e.g. h:bench), got '" + v + "'");
          } else {
            tags.add(tag);
          }
        }
        default ->
            problems.add(
                p
                    + "unknown key '"
                    + k
                    + "' (expected one of url, host, rate, conns, kind, tag, identities,"
                    + " content, community)");
      }
    }
    if (url == null) {
      problems.add(p + "missing url");
    }
    if (rate == null && problems.size() == before) {
      problems.add(p + "missing rate");
    }
    if (problems.size() > before) {
      return null;
    }
    Target target;
    try {
      String name = community;
      if (name == null) {
        URI u = URI.create(url);
        name = host != null ? host : u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort());
      }
      target = new Target(name, url, host, tags, kind, content);
    } catch (IllegalArgumentException e) {
      problems.add(p + e.getMessage());
      return null;
    }
    List<String> loadProblems = TargetLoad.problems(target, rate, conns, identities);
    loadProblems.forEach(lp -> problems.add(p + lp));
    return loadProblems.isEmpty() ? new TargetLoad(target, rate, conns, identities) : null;
  }

  private static int integer(String field, String v, List<String> problems) {
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      problems.add(field + " must be an integer, got '" + v + "'");
      return 0;
    }
  }

  /** "1.5s", "500ms", "2m", a bare number of seconds, or ISO-8601 ("PT10S"). */
  static Duration duration(String field, String v, List<String> problems) {
    String t = v.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("pt")) {
        return Duration.parse(v.trim());
      }
      double seconds;
      if (t.endsWith("ms")) {
        seconds = Double.parseDouble(t.substring(0, t.length() - 2)) / 1000;
      } else if (t.endsWith("s")) {
        seconds = Double.parseDouble(t.substring(0, t.length() - 1));
      } else if (t.endsWith("m")) {
        seconds = Double.parseDouble(t.substring(0, t.length() - 1)) * 60;
      } else {
        seconds = Double.parseDouble(t);
      }
      if (!(seconds > 0) || Double.isInfinite(seconds)) {
        problems.add(field + " must be > 0, got '" + v + "'");
        return null;
      }
      return Duration.ofNanos(Math.round(seconds * 1e9));
    } catch (RuntimeException e) {
      problems.add(field + " must be a duration like 10s, 500ms, 2m or PT10S, got '" + v + "'");
      return null;
    }
  }
}
