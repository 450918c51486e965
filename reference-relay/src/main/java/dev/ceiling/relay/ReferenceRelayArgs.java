package dev.ceiling.relay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

/**
 * The reference relay's command line, parsed by picocli into a {@link ReferenceRelayConfig}.
 * picocli collects every parse error (unknown flag, missing value, unparsable number) instead of
 * stopping at the first, and the config records add their range problems, so a user sees every
 * problem at once.
 */
@Command(
    name = "refrelay",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Ceiling's reference relay: a NIP-01 relay on 127.0.0.1 with a real audit write path (an"
          + " embedded H2 server, or PostgreSQL with --jdbc-url) behind a bounded queue.",
      "Prints exactly one READY line on stdout when it serves; everything else goes to stderr."
          + " Stops on SIGTERM. Exit codes: 0 stopped by signal, 2 bad command line, 3 could not"
          + " start."
    })
final class ReferenceRelayArgs {
  @Option(
      names = "--port",
      description =
          "WebSocket and HTTP (/health, /metrics) port on 127.0.0.1; 0 picks a free one"
              + " (default: ${DEFAULT-VALUE}).")
  int port = 0;

  @Option(
      names = "--db-port",
      description =
          "Embedded H2 server's TCP port on 127.0.0.1; 0 picks a free one; ignored with"
              + " --jdbc-url (default: ${DEFAULT-VALUE}).")
  int dbPort = 0;

  @Option(
      names = "--data-dir",
      description = "Database directory (default: a temporary directory, deleted on close).")
  Path dataDir;

  @Option(
      names = "--reset",
      arity = "0..1",
      fallbackValue = "true",
      description = "Drop the audit tables at start.")
  boolean reset = false;

  @Option(
      names = "--rig-id",
      description =
          "Accepted and ignored: it marks the command line for the rig's pid ownership check.")
  String rigId;

  @Option(
      names = "--communities",
      split = ",",
      description =
          "Host names served, lower case, no port; each its own community (default:"
              + " ${DEFAULT-VALUE}).")
  List<String> communities = new ArrayList<>(List.of("a.localhost", "b.localhost"));

  @Option(
      names = "--default-community",
      description = "Community for an unknown Host (default: NOTICE and close).")
  String defaultCommunity;

  @Option(
      names = "--audit",
      arity = "1",
      description =
          "on: every accepted event is written to the audit log before its OK; off: no"
              + " audit path (default: on).")
  OnOff audit = OnOff.on;

  @Option(
      names = "--audit-queue-capacity",
      description = "Audit queue capacity, entries (default: ${DEFAULT-VALUE}).")
  int auditQueueCapacity = 1000;

  @Option(
      names = "--audit-exchange-delay-ms",
      description =
          "Injected delay before each of the audit write's exchanges, ms (default:"
              + " ${DEFAULT-VALUE}).")
  double auditExchangeDelayMs = 0.0;

  @Option(
      names = "--audit-exchanges",
      paramLabel = "N",
      description =
          "Sequential database exchanges per audit entry, 4 to 1000: lock, BEGIN, head, INSERT,"
              + " N-6 read-backs, COMMIT, unlock; 4 and 5 write without BEGIN/COMMIT (default:"
              + " ${DEFAULT-VALUE}).")
  int auditExchanges = AuditWriter.EXCHANGES;

  @Option(
      names = "--audit-workers",
      paramLabel = "N",
      description =
          "Audit workers draining the one queue, each on its own database connection, 1 to 64"
              + " (default: ${DEFAULT-VALUE}).")
  int auditWorkers = 1;

  @Option(
      names = "--audit-lock",
      converter = LockModeConverter.class,
      description =
          "Lease the workers contend for: global (one for all), per-community (one per"
              + " community), none (one per worker, never contended) (default: none).")
  AuditLockMode auditLock = AuditLockMode.NONE;

  @Option(
      names = "--limiter-events-per-sec",
      description =
          "Admission limit per (community, pubkey), events/s (default: ${DEFAULT-VALUE}).")
  int limiterEventsPerSec = 10;

  @Option(
      names = "--limiter-window-secs",
      description =
          "Admission limiter's fixed window, s; the limit is rate x window (default:"
              + " ${DEFAULT-VALUE}).")
  int limiterWindowSecs = 5;

  @Option(
      names = "--limiter-per-ip-events-per-sec",
      paramLabel = "N",
      description =
          "Admission limit per (community, remote IP address), events/s, over the same window as"
              + " --limiter-events-per-sec and checked after it; 0 turns it off (default:"
              + " ${DEFAULT-VALUE}).")
  int limiterPerIpEventsPerSec = 0;

  @Option(
      names = "--limiter-reject-mode",
      converter = RejectModeConverter.class,
      description =
          "notice: a NOTICE without OK (the seed's relay); ok-false: NIP-01's OK false"
              + " (default: notice).")
  ReferenceRelayConfig.RejectMode limiterRejectMode = ReferenceRelayConfig.RejectMode.NOTICE;

  @Option(
      names = "--verify-signatures",
      arity = "1",
      description = "Check BIP-340 signatures (default: ${DEFAULT-VALUE}).")
  boolean verifySignatures = true;

  @Option(
      names = "--jdbc-url",
      description = "External database (PostgreSQL) instead of the embedded H2.")
  String jdbcUrl;

  @Option(
      names = "--db-connect",
      paramLabel = "HOST:PORT",
      description =
          "Where the audit worker and the calibration connect to the database, on loopback: a"
              + " delay proxy in front of --db-port, say (default: the server's own address)."
              + " With a PostgreSQL --jdbc-url it replaces the URL's HOST:PORT. The metrics' row"
              + " count reads the database directly, so scrapes add no traffic to this link.")
  String dbConnect;

  @Option(
      names = "--synchronous-commit",
      arity = "1",
      description = "PostgreSQL synchronous_commit, on or off; ignored for H2 (default: on).")
  OnOff synchronousCommit = OnOff.on;

  @Option(
      names = "--max-frame-bytes",
      description =
          "Largest text message accepted, bytes; larger closes with 1009 (default:"
              + " ${DEFAULT-VALUE}).")
  int maxFrameBytes = 131072;

  @Option(
      names = "--calibration-runs",
      description =
          "Runs of the audit write timed at start to predict the worker and lock ceilings (default:"
              + " ${DEFAULT-VALUE}).")
  int calibrationRuns = 200;

  @Option(
      names = "--store-capacity",
      description =
          "Events kept in memory for REQ read-back and duplicate detection (default:"
              + " ${DEFAULT-VALUE}).")
  int storeCapacity = 100000;

  @Option(
      names = "--fault-limiter-unavailable-p",
      description = "Fault: chance an admission check finds the limiter unavailable (default: 0).")
  double faultLimiterUnavailableP = 0.0;

  @Option(
      names = "--fault-audit-write-error-p",
      description = "Fault: chance an audit entry's write fails, rolled back (default: 0).")
  double faultAuditWriteErrorP = 0.0;

  @Option(
      names = "--fault-worker-dies-after",
      description = "Fault: the audit worker stops after this many entries; 0 never (default: 0).")
  long faultWorkerDiesAfter = 0;

  @Option(
      names = "--fault-drop-ok-fraction",
      description = "Fault: fraction of OK answers not sent (default: 0).")
  double faultDropOkFraction = 0.0;

  @Option(
      names = "--fault-close-after",
      description = "Fault: a connection is closed after this many EVENTs; 0 never (default: 0).")
  long faultCloseAfter = 0;

  @Option(
      names = "--seed",
      description = "Seed for every fault's randomness (default: ${DEFAULT-VALUE}).")
  long seed = 1L;

  private ReferenceRelayArgs() {}

  /** What the command line asked for: a config, or the usage or version text. */
  record Parsed(ReferenceRelayConfig config, String helpText) {}

  /**
   * Parses the command line. Every problem (unknown flag, missing value, unparsable number, out of
   * range) is collected and thrown together.
   *
   * @throws ReferenceRelayConfigException listing every problem
   */
  static Parsed parseOrHelp(String[] args) {
    ReferenceRelayArgs a = new ReferenceRelayArgs();
    CommandLine cl = new CommandLine(a);
    cl.getCommandSpec().parser().collectErrors(true);
    ParseResult pr = cl.parseArgs(args);
    List<String> problems = new ArrayList<>();
    for (Exception e : pr.errors()) {
      problems.add(e.getMessage());
    }
    if (problems.isEmpty() && (pr.isUsageHelpRequested() || pr.isVersionHelpRequested())) {
      return new Parsed(
          null, pr.isUsageHelpRequested() ? cl.getUsageMessage() : "refrelay (Ceiling)");
    }
    return new Parsed(a.toConfig(problems), null);
  }

  /** Parses a command line that must name a config (no --help). */
  static ReferenceRelayConfig parse(String[] args) {
    Parsed p = parseOrHelp(args);
    if (p.config() == null) {
      throw new ReferenceRelayConfigException(List.of("--help is not a relay configuration"));
    }
    return p.config();
  }

  // A value that failed to convert left its field at the default, so construction below still
  // runs and adds the range problems: the user sees everything wrong at once.
  private ReferenceRelayConfig toConfig(List<String> problems) {
    ReferenceRelayConfig.Faults faults = null;
    try {
      faults =
          new ReferenceRelayConfig.Faults(
              faultLimiterUnavailableP,
              faultAuditWriteErrorP,
              faultWorkerDiesAfter,
              faultDropOkFraction,
              faultCloseAfter,
              seed);
    } catch (ReferenceRelayConfigException e) {
      problems.addAll(e.problems());
    }
    try {
      ReferenceRelayConfig c =
          new ReferenceRelayConfig(
              port,
              dbPort,
              Optional.ofNullable(dataDir),
              reset,
              Optional.ofNullable(rigId),
              communities.stream().map(String::trim).toList(),
              Optional.ofNullable(defaultCommunity).map(String::trim),
              audit == OnOff.on,
              auditQueueCapacity,
              auditExchangeDelayMs,
              auditExchanges,
              auditWorkers,
              auditLock,
              limiterEventsPerSec,
              limiterWindowSecs,
              limiterPerIpEventsPerSec,
              limiterRejectMode,
              verifySignatures,
              Optional.ofNullable(jdbcUrl),
              Optional.ofNullable(dbConnect),
              synchronousCommit == OnOff.on,
              maxFrameBytes,
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

  static void portRange(List<String> problems, String flag, int port) {
    if (port < 0 || port > 65535) {
      problems.add(flag + " must be in [0, 65535], got " + port);
    }
  }

  /** {@code on} / {@code off}, nothing else (a typo must not silently mean off). */
  enum OnOff {
    on,
    off
  }

  /** {@code global} / {@code per-community} / {@code none}. */
  static final class LockModeConverter implements ITypeConverter<AuditLockMode> {
    @Override
    public AuditLockMode convert(String s) {
      AuditLockMode m = AuditLockMode.fromFlag(s.trim());
      if (m == null) {
        throw new TypeConversionException(
            "expected global, per-community or none, got '" + s + "'");
      }
      return m;
    }
  }

  /** {@code notice} / {@code ok-false}. */
  static final class RejectModeConverter
      implements ITypeConverter<ReferenceRelayConfig.RejectMode> {
    @Override
    public ReferenceRelayConfig.RejectMode convert(String s) {
      return switch (s.trim()) {
        case "notice" -> ReferenceRelayConfig.RejectMode.NOTICE;
        case "ok-false" -> ReferenceRelayConfig.RejectMode.OK_FALSE;
        default ->
            throw new TypeConversionException("expected notice or ok-false, got '" + s + "'");
      };
    }
  }
}
