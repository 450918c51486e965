package dev.ceiling.cli.command;

import com.google.common.base.Splitter;
import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.internal.SignalHandlers;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Checks;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.experiment.ShutdownHook;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.Segment;
import dev.ceiling.generator.SourceAddresses;
import dev.ceiling.generator.StartInstant;
import dev.ceiling.generator.StopRequest;
import dev.ceiling.generator.TargetLoad;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code generate}: the generator alone, pointed at any relay. One JSON report on stdout (or in
 * {@code --json}), progress on stderr. Exit codes: 0 the run completed (read generator_bound in the
 * report), 2 bad input (one line naming every bad field, before anything connects), 3
 * infrastructure failure (a connection failed before the clock, the report could not be written),
 * 130 stopped by SIGINT or SIGTERM (the report, marked incomplete, is still written).
 */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Offer paced open-loop load to relays; print a JSON report.",
    description = {
      "The report goes to stdout, or to --json; progress goes to stderr. A DURATION is 10s,"
          + " 500ms, 2m, PT10S or a bare number of seconds.",
      "Exit codes: 0 the run completed (read generator_bound in the report), 2 bad usage or input"
          + " (before anything connects), 3 infrastructure failure, 130 stopped by SIGINT"
          + " (Ctrl-C) or SIGTERM.",
      "SIGINT or SIGTERM stops the run after the slots already due: it waits up to"
          + " --grace-period for the answers outstanding, then writes the report (to --json or"
          + " stdout) with everything sent and answered so far and an 'incomplete' field saying"
          + " which signal stopped it; a second signal exits at once without a report.",
      "A target's host may be an address in 127.0.0.0/8 or ::1, or localhost or a name under"
          + " .localhost, which are never looked up: the run connects to 127.0.0.1, or to ::1"
          + " when only that accepts, says which on stderr, and sends the name as the Host"
          + " header. Any other host needs --allow-remote.",
      ""
    })
public final class GenerateCommand implements Callable<Integer> {
  /** The keys a {@code --target} spec may use. */
  static final List<String> TARGET_KEYS =
      List.of("url", "host", "rate", "conns", "kind", "tag", "identities", "content", "community");

  @Spec CommandSpec spec;

  @Option(
      names = "--duration",
      required = true,
      paramLabel = "DURATION",
      description = "Length of the measured schedule, a duration (at most 24h).")
  Duration duration;

  @Option(
      names = "--target",
      required = true,
      paramLabel = "SPEC",
      description =
          "A relay and its load (repeatable): url=ws://HOST:PORT/,rate=EVENTS_PER_S and"
              + " optionally host=HOST_HEADER, conns=N (connections, default 1), kind=K (default"
              + " 1), tag=NAME:VALUE (repeatable), identities=N (signing keys, default 1),"
              + " content=BYTES (default 64, at least 32), community=NAME (default: the host).")
  List<String> targets = new ArrayList<>();

  @Option(
      names = "--warmup",
      paramLabel = "DURATION",
      description =
          "Load sent on the same schedule before the measured window and left out of every"
              + " count, a duration or 0 (default: 0).")
  String warmup = "0";

  @Option(
      names = "--segment",
      paramLabel = "i/N",
      description = "Send only share i of N of the schedule (default: all of it).")
  String segment;

  @Option(
      names = "--start-at",
      paramLabel = "INSTANT",
      description =
          "Slot 0 of every segment is due at this wall-clock instant (ISO-8601 UTC, e.g."
              + " 2026-12-01T06:30:00Z); connections open and warm up before it, and a process not"
              + " ready by then fails instead of starting late (default: 100 ms after connecting).")
  String startAt;

  @Option(
      names = "--lag-bound",
      paramLabel = "DURATION",
      defaultValue = "10ms",
      description =
          "The self-check's send-lag p99 bound; the bound applied is max(this, 2 x the machine's"
              + " wake floor p99 measured before the clock, 10%% of the slot interval) (default:"
              + " ${DEFAULT-VALUE}, as for sweep and experiment).")
  Duration lagBound;

  @Option(
      names = "--grace-period",
      paramLabel = "DURATION",
      defaultValue = "10s",
      description =
          "The longest wait for outstanding OKs after the last send; events still unanswered"
              + " then count as unacknowledged (default: ${DEFAULT-VALUE}).")
  Duration gracePeriod;

  @Option(
      names = "--connect-timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      description =
          "Longest wait for all connections before the clock (default: ${DEFAULT-VALUE}).")
  Duration connectTimeout;

  @Option(
      names = "--inflight-cap",
      paramLabel = "EVENTS",
      defaultValue = "" + GeneratorConfig.DEFAULT_INFLIGHT_CAP,
      description =
          "Events sent but unanswered on one connection before its next slot waits (and goes out"
              + " late, recorded) (default: ${DEFAULT-VALUE}).")
  int inflightCap;

  @Option(
      names = "--sender-threads",
      paramLabel = "THREADS",
      defaultValue = "" + GeneratorConfig.DEFAULT_SENDER_THREADS,
      description = "Threads that put slots on the wire, 1 to 64 (default: ${DEFAULT-VALUE}).")
  int senderThreads;

  @Option(
      names = "--max-frame-bytes",
      paramLabel = "BYTES",
      defaultValue = "" + GeneratorConfig.DEFAULT_MAX_FRAME_BYTES,
      description =
          "Largest message accepted from a relay, bytes, 1024 to 64 MiB (default:"
              + " ${DEFAULT-VALUE}).")
  int maxFrameBytes;

  @Option(
      names = "--source-addresses",
      paramLabel = "ADDRESSES",
      description =
          "Bind the connections to these loopback addresses, round-robin: a comma list of"
              + " addresses or inclusive IPv4 ranges A-B, e.g. 127.0.0.2-127.0.0.65, at most "
              + SourceAddresses.MAX
              + " and no more than the connections, so a relay that limits per IP address sees"
              + " that many sources (default: the OS chooses, 127.0.0.1 on loopback).")
  String sourceAddresses;

  @Option(
      names = "--allow-remote",
      description = "Allow targets that are not loopback (default: refused).")
  boolean allowRemote;

  @Option(
      names = "--json",
      paramLabel = "FILE",
      description = "Write the report to this file instead of stdout.")
  Path json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    new OptionChecks().files(new OutputPaths().output("--json", json)).orFail(spec.commandLine());
    GeneratorConfig cfg = config();
    StopRequest stop = new StopRequest();
    // Long enough for the answers outstanding at the stop (the grace period) and the report.
    Duration hold = cfg.gracePeriod().plus(STOP_MARGIN);
    CountDownLatch ended = new CountDownLatch(1);
    SignalHandlers signals =
        SignalHandlers.install(
            List.of("INT", "TERM"), name -> onSignal(name, stop, hold, ended, err));
    // Any other way into the JVM's shutdown (SIGHUP, or SIGINT where no named handler could be
    // installed): the same stop, held as long, only without the signal's name.
    ShutdownHook hook =
        ShutdownHook.install(
            "ceiling-generate-interrupt",
            () -> onSignal("a signal (the JVM is shutting down)", stop, hold, ended, err),
            hold,
            () -> Runtime.getRuntime().halt(ExitCode.INTERRUPTED));
    try {
      int code = runAndWrite(cfg, out, err, stop);
      return stop.requested() && code == 0 ? ExitCode.INTERRUPTED : code;
    } finally {
      ended.countDown();
      hook.close();
      signals.close();
    }
  }

  /** What the run still gets after a stop before the process halts anyway, beyond the grace. */
  static final Duration STOP_MARGIN = Duration.ofSeconds(30);

  /**
   * The first signal stops the run after the slots already due, and a watchdog halts the process
   * with 130 should it not end within {@code hold} (it stands down once {@code ended} is counted
   * down, so a caller in the same JVM lives on); a second signal halts it at once, with no report.
   */
  private static void onSignal(
      String name, StopRequest stop, Duration hold, CountDownLatch ended, PrintWriter err) {
    if (stop.requested()) {
      err.println("generate: " + name + " again: exiting now; no report written");
      err.flush();
      Runtime.getRuntime().halt(ExitCode.INTERRUPTED);
    }
    stop.request(name);
    err.println(
        "generate: "
            + name
            + ": stopping after the slots already due; the report keeps what was sent and answered,"
            + " marked incomplete");
    err.flush();
    Thread watchdog =
        new Thread(
            () -> {
              try {
                if (ended.await(hold.toMillis(), TimeUnit.MILLISECONDS)) {
                  return;
                }
              } catch (InterruptedException e) {
                return;
              }
              err.println("generate: the run did not end within " + hold + " of " + name);
              err.flush();
              Runtime.getRuntime().halt(ExitCode.INTERRUPTED);
            },
            "ceiling-generate-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private int runAndWrite(GeneratorConfig cfg, PrintWriter out, PrintWriter err, StopRequest stop) {
    GeneratorReport report;
    try {
      report = Generator.run(cfg, line -> err.println("generate: " + Redaction.redact(line)), stop);
    } catch (GeneratorException e) {
      // An instant the user gave that had already passed is bad input, as any other.
      if (e.kind() == GeneratorException.Kind.CONFIG
          || e.kind() == GeneratorException.Kind.STARTED_LATE) {
        throw CommandLines.usage(spec.commandLine(), e.getMessage());
      }
      CommandLines.error(err, e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    try {
      // The report names its targets' URLs and configuration: no credentials in either.
      String text = Redaction.redact(Json.write(report));
      if (json != null) {
        Json.writeText(json, text);
      } else {
        out.print(text);
        out.flush();
      }
    } catch (IOException e) {
      CommandLines.error(err, "--json: cannot write the report to " + json + ": " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    if (report.generatorBound()) {
      err.println("generate: GENERATOR BOUND: " + report.generatorBoundReason());
    }
    if (report.incomplete() != null) {
      err.println(
          "generate: INCOMPLETE report written"
              + (json == null ? "" : " to " + json)
              + ": "
              + report.incomplete());
    }
    return 0;
  }

  /** The run's configuration; every problem at once, as one usage error. */
  GeneratorConfig config() {
    OptionChecks checks = new OptionChecks();
    Checks problems = checks.all();
    GeneratorConfig.Builder b =
        GeneratorConfig.builder()
            .duration(duration)
            .gracePeriod(gracePeriod)
            .connectTimeout(connectTimeout)
            .sendLagBound(lagBound)
            .inflightCapPerConnection(inflightCap)
            .senderThreads(senderThreads)
            .maxFrameBytes(maxFrameBytes)
            .allowRemote(allowRemote);
    parse(problems, "--warmup: ", () -> b.warmup(warmup()));
    if (segment != null) {
      parse(problems, "--segment: ", () -> b.segment(Segment.parse(segment)));
    }
    if (startAt != null) {
      parse(problems, "--start-at ", () -> b.startAt(StartInstant.parse(startAt)));
    }
    List<TargetLoad> loads = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      TargetLoad l = parseTarget(i + 1, targets.get(i), problems);
      if (l != null) {
        b.load(l);
        loads.add(l);
      }
    }
    List<String> sourceRules =
        sourceAddresses == null
            ? List.of()
            : sourceAddresses(b, loads.size() == targets.size() ? loads : null, problems);
    if (problems.problems().size() == sourceRules.size()) {
      // Only the generator's source-address rules so far, already named with the option: the
      // builder's other problems (a remote target without --allow-remote) still belong here.
      b.problems().stream().filter(p -> !sourceRules.contains(p)).forEach(problems::add);
    }
    checks.orFail(spec.commandLine());
    return b.build();
  }

  /** {@code --warmup}: 0, or a duration as every other duration option takes it. */
  private Duration warmup() {
    return "0".equals(warmup.trim())
        ? Duration.ZERO
        : new CommandLines.DurationConverter().convert(warmup);
  }

  /** Runs {@code set}; a value it refuses is a problem, its message after {@code prefix}. */
  private static void parse(Checks problems, String prefix, Runnable set) {
    try {
      set.run();
    } catch (IllegalArgumentException | CommandLine.TypeConversionException e) {
      problems.add(prefix + e.getMessage());
    }
  }

  /**
   * Parses {@code --source-addresses} into {@code b}; every problem names the option, the
   * generator's rules included ({@code loads} null when some target did not parse, so the rules
   * that count connections wait for a good command line).
   *
   * @return the generator's rule lines that were added (named with the option), as the builder will
   *     state them again
   */
  private List<String> sourceAddresses(
      GeneratorConfig.Builder b, List<TargetLoad> loads, Checks problems) {
    int before = problems.problems().size();
    List<InetAddress> parsed = SourceAddressSpec.parse(sourceAddresses, problems);
    if (problems.problems().size() > before) {
      return List.of();
    }
    List<String> rules = SourceAddresses.problems(parsed, loads);
    rules.forEach(r -> problems.add(SourceAddressSpec.OPTION + ": " + r));
    b.sourceAddresses(parsed);
    return rules;
  }

  /**
   * Parses one target spec; adds every problem (prefixed "target N: ") and returns null when there
   * is any. Not a Guava map splitter: {@code tag} may repeat.
   */
  static TargetLoad parseTarget(int n, String spec, Checks problems) {
    String p = "target " + n + ": ";
    int before = problems.problems().size();
    String url = null;
    String host = null;
    String community = null;
    Double rate = null;
    int conns = 1;
    int kind = 1;
    int identities = 1;
    int content = 64;
    List<List<String>> tags = new ArrayList<>();
    for (String part : Splitter.on(',').trimResults().split(spec)) {
      List<String> kv = Splitter.on('=').limit(2).trimResults().splitToList(part);
      if (kv.size() < 2 || kv.get(0).isEmpty()) {
        problems.add(p + "expected key=value, got '" + part + "'");
        continue;
      }
      String k = kv.get(0);
      String v = kv.get(1);
      switch (k) {
        case "url" -> url = v;
        case "host" -> host = v;
        case "community" -> community = v;
        case "rate" -> {
          try {
            rate = CommandLines.FINITE_DOUBLE.convert(v);
          } catch (RuntimeException e) {
            problems.add(p + "rate must be a finite number of events/s, got '" + v + "'");
          }
        }
        case "conns" -> conns = integer(p + "conns", v, problems);
        case "kind" -> kind = integer(p + "kind", v, problems);
        case "identities" -> identities = integer(p + "identities", v, problems);
        case "content" -> content = integer(p + "content", v, problems);
        case "tag" -> {
          List<String> tag = Splitter.on(':').splitToList(v);
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
                    + "' (expected one of "
                    + String.join(", ", TARGET_KEYS)
                    + ")");
      }
    }
    if (url == null) {
      problems.add(p + "missing url");
    }
    if (rate == null && problems.problems().size() == before) {
      problems.add(p + "missing rate");
    }
    if (problems.problems().size() > before) {
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

  private static int integer(String field, String v, Checks problems) {
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      problems.add(field + " must be an integer, got '" + v + "'");
      return 0;
    }
  }
}
