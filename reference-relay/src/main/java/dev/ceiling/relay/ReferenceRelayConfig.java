package dev.ceiling.relay;

import dev.ceiling.core.net.Loopback;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything the reference relay is told on its command line. Every field is checked in the compact
 * constructor and all problems are reported at once in one {@link ReferenceRelayConfigException}.
 *
 * @param port WebSocket + HTTP port on 127.0.0.1; 0 = ephemeral
 * @param dbPort H2 TCP server port on 127.0.0.1; 0 = ephemeral (ignored with {@code jdbcUrl})
 * @param dataDir database directory; empty = a temporary directory deleted on close
 * @param reset drop the audit tables at startup
 * @param rigId accepted and ignored: it marks the command line for the rig's pid ownership check
 * @param communities host names served (lower case, no port)
 * @param defaultCommunity community for an unknown Host; empty = NOTICE and close
 * @param auditOn the treatment arm: the audit log sits on the OK path
 * @param auditQueueCapacity bounded audit queue capacity, entries
 * @param auditExchangeDelayMillis injected delay before each of the audit write's exchanges, ms
 * @param auditExchanges sequential database exchanges per audit entry, in [{@value
 *     #MIN_AUDIT_EXCHANGES}, {@value #MAX_AUDIT_EXCHANGES}] (6 by default; {@link AuditWriter} says
 *     which statements)
 * @param auditWorkers audit workers draining the one queue, each on its own database connection, in
 *     [1, {@value #MAX_AUDIT_WORKERS}]
 * @param auditLock which lease the workers contend for ({@link AuditLockMode})
 * @param limiterEventsPerSecond admission rate per (community, pubkey)
 * @param limiterWindowSeconds fixed window length; limit = rate x window
 * @param limiterPerIpEventsPerSecond admission rate per (community, remote IP address), checked
 *     after the per-pubkey one and with the same window; 0 = no per-IP limit
 * @param rejectMode how a limiter rejection is answered
 * @param verifySignatures check BIP-340 signatures
 * @param jdbcUrl external database instead of the embedded H2; empty = embedded
 * @param dbConnect where the audit worker and the calibration connect to the embedded H2 server,
 *     {@code host:port} on loopback (a delay proxy in front of it, say); empty = the server's own
 *     address. Not allowed with {@code jdbcUrl}
 * @param synchronousCommit PostgreSQL synchronous_commit (on/off); ignored for H2
 * @param maxFrameBytes largest text message accepted; larger closes with 1009
 * @param calibrationRuns runs of the six exchanges timed at startup
 * @param storeCapacity events kept in memory for REQ read-back and duplicate detection
 * @param faults fault injection settings
 */
public record ReferenceRelayConfig(
    int port,
    int dbPort,
    Optional<Path> dataDir,
    boolean reset,
    Optional<String> rigId,
    List<String> communities,
    Optional<String> defaultCommunity,
    boolean auditOn,
    int auditQueueCapacity,
    double auditExchangeDelayMillis,
    int auditExchanges,
    int auditWorkers,
    AuditLockMode auditLock,
    int limiterEventsPerSecond,
    int limiterWindowSeconds,
    int limiterPerIpEventsPerSecond,
    RejectMode rejectMode,
    boolean verifySignatures,
    Optional<String> jdbcUrl,
    Optional<String> dbConnect,
    boolean synchronousCommit,
    int maxFrameBytes,
    int calibrationRuns,
    int storeCapacity,
    Faults faults) {

  /** How a limiter rejection is answered. */
  public enum RejectMode {
    /** A NOTICE without the event id (the seed relay's behaviour; a NIP-01 client stalls). */
    NOTICE,
    /** NIP-01-correct {@code ["OK", id, false, "rate-limited: ..."]}. */
    OK_FALSE;

    /** The command-line spelling. */
    public String flagValue() {
      return this == NOTICE ? "notice" : "ok-false";
    }
  }

  /**
   * Fault injection, all off by default.
   *
   * @param limiterUnavailableProbability chance an admission check finds the limiter unavailable
   * @param auditWriteErrorProbability chance an audit entry's write fails (rolled back)
   * @param workerDiesAfterEntries the audit worker stops after this many entries; 0 = never
   * @param dropOkFraction fraction of OK answers not sent
   * @param closeAfterEvents a connection is closed after this many EVENTs; 0 = never
   * @param seed seed for every fault's randomness
   */
  public record Faults(
      double limiterUnavailableProbability,
      double auditWriteErrorProbability,
      long workerDiesAfterEntries,
      double dropOkFraction,
      long closeAfterEvents,
      long seed) {

    /** No fault injected. */
    public static Faults none() {
      return new Faults(0, 0, 0, 0, 0, 1);
    }

    public Faults {
      List<String> problems = new ArrayList<>();
      probability(problems, "fault-limiter-unavailable-p", limiterUnavailableProbability);
      probability(problems, "fault-audit-write-error-p", auditWriteErrorProbability);
      probability(problems, "fault-drop-ok-fraction", dropOkFraction);
      if (workerDiesAfterEntries < 0) {
        problems.add("fault-worker-dies-after must be >= 0 entries, got " + workerDiesAfterEntries);
      }
      if (closeAfterEvents < 0) {
        problems.add("fault-close-after must be >= 0 events, got " + closeAfterEvents);
      }
      if (!problems.isEmpty()) {
        throw new ReferenceRelayConfigException(problems);
      }
    }

    /** True when any fault is armed. */
    public boolean any() {
      return limiterUnavailableProbability > 0
          || auditWriteErrorProbability > 0
          || workerDiesAfterEntries > 0
          || dropOkFraction > 0
          || closeAfterEvents > 0;
    }

    private static void probability(List<String> problems, String flag, double p) {
      if (!(p >= 0 && p <= 1)) {
        problems.add(flag + " must be in [0, 1], got " + p);
      }
    }
  }

  /** Fewest exchanges an audit write can make ({@link AuditWriter#MIN_EXCHANGES}). */
  public static final int MIN_AUDIT_EXCHANGES = AuditWriter.MIN_EXCHANGES;

  /** Most exchanges per audit write: beyond it a sweep's rates would be a handful per second. */
  public static final int MAX_AUDIT_EXCHANGES = 1000;

  /** Most audit workers: each holds a database connection and a thread. */
  public static final int MAX_AUDIT_WORKERS = 64;

  public ReferenceRelayConfig {
    communities = communities == null ? null : List.copyOf(communities);
    List<String> problems = new ArrayList<>();
    ReferenceRelayArgs.portRange(problems, "port", port);
    ReferenceRelayArgs.portRange(problems, "db-port", dbPort);
    if (communities == null || communities.isEmpty()) {
      problems.add("communities must name at least one host, got none");
    } else {
      for (String c : communities) {
        if (c.isBlank() || c.contains(":") || !c.equals(c.toLowerCase(Locale.ROOT))) {
          problems.add("communities must be lower-case host names without port, got '" + c + "'");
        }
      }
    }
    if (auditQueueCapacity < 1) {
      problems.add("audit-queue-capacity must be >= 1 entries, got " + auditQueueCapacity);
    }
    if (!(auditExchangeDelayMillis >= 0 && auditExchangeDelayMillis <= 10_000)) {
      problems.add(
          "audit-exchange-delay-ms must be in [0, 10000] ms, got " + auditExchangeDelayMillis);
    }
    auditShape(problems, auditExchanges, auditWorkers, auditLock, faults);
    if (limiterEventsPerSecond < 1) {
      problems.add("limiter-events-per-sec must be >= 1, got " + limiterEventsPerSecond);
    }
    if (limiterWindowSeconds < 1) {
      problems.add("limiter-window-secs must be >= 1 s, got " + limiterWindowSeconds);
    }
    if ((long) limiterEventsPerSecond * limiterWindowSeconds > Integer.MAX_VALUE) {
      problems.add(
          "limiter-events-per-sec x limiter-window-secs must fit an int, got "
              + (long) limiterEventsPerSecond * limiterWindowSeconds);
    }
    if (limiterPerIpEventsPerSecond < 0) {
      problems.add(
          "limiter-per-ip-events-per-sec must be >= 0 (0 = off), got "
              + limiterPerIpEventsPerSecond);
    }
    if ((long) limiterPerIpEventsPerSecond * limiterWindowSeconds > Integer.MAX_VALUE) {
      problems.add(
          "limiter-per-ip-events-per-sec x limiter-window-secs must fit an int, got "
              + (long) limiterPerIpEventsPerSecond * limiterWindowSeconds);
    }
    if (maxFrameBytes < 256) {
      problems.add("max-frame-bytes must be >= 256 bytes, got " + maxFrameBytes);
    }
    if (calibrationRuns < 1) {
      problems.add("calibration-runs must be >= 1, got " + calibrationRuns);
    }
    if (storeCapacity < 1) {
      problems.add("store-capacity must be >= 1 events, got " + storeCapacity);
    }
    if (jdbcUrl != null
        && jdbcUrl.isPresent()
        && !jdbcUrl.get().startsWith("jdbc:postgresql:")
        && !jdbcUrl.get().startsWith("jdbc:h2:")) {
      problems.add("jdbc-url must start with jdbc:postgresql: or jdbc:h2:, got " + jdbcUrl.get());
    }
    dbConnect(problems, dbConnect, jdbcUrl);
    if (rejectMode == null) {
      problems.add("limiter-reject-mode must be notice or ok-false, got null");
    }
    if (faults == null
        || dataDir == null
        || rigId == null
        || defaultCommunity == null
        || dbConnect == null) {
      problems.add(
          "faults, dataDir, rigId, defaultCommunity, dbConnect must be non-null (use Optional)");
    }
    if (!problems.isEmpty()) {
      throw new ReferenceRelayConfigException(problems);
    }
  }

  private static void dbConnect(
      List<String> problems, Optional<String> dbConnect, Optional<String> jdbcUrl) {
    if (dbConnect == null || dbConnect.isEmpty()) {
      return;
    }
    String v = dbConnect.get();
    if (jdbcUrl != null
        && jdbcUrl.isPresent()
        && AuditDatabase.withAddress(jdbcUrl.get(), v) == null) {
      problems.add(
          "db-connect with --jdbc-url needs a jdbc:postgresql://HOST:PORT/... URL, whose address"
              + " the audit path then replaces; got "
              + jdbcUrl.get());
    }
    int colon = v.lastIndexOf(':');
    int connectPort = -1;
    try {
      connectPort = colon < 0 ? -1 : Integer.parseInt(v.substring(colon + 1));
    } catch (NumberFormatException e) {
      connectPort = -1;
    }
    // Loopback only, like every other address of this relay: the link a proxy sits on is local.
    // An address, not a loopback name: the database driver would look a name up, and the rig
    // always passes the proxy's address here.
    if (colon < 1
        || connectPort < 1
        || connectPort > 65535
        || !Loopback.isLoopbackAddress(v.substring(0, colon))) {
      problems.add(
          "db-connect must be host:port with a loopback address and a port in [1, 65535], e.g."
              + " 127.0.0.1:47101, got '"
              + v
              + "'");
    }
  }

  private static void auditShape(
      List<String> problems, int exchanges, int workers, AuditLockMode lock, Faults faults) {
    if (exchanges < MIN_AUDIT_EXCHANGES || exchanges > MAX_AUDIT_EXCHANGES) {
      problems.add(
          "audit-exchanges must be in ["
              + MIN_AUDIT_EXCHANGES
              + ", "
              + MAX_AUDIT_EXCHANGES
              + "], got "
              + exchanges);
    } else if (exchanges < AuditWriter.TRANSACTION_EXCHANGES
        && faults != null
        && faults.auditWriteErrorProbability() > 0) {
      problems.add(
          "fault-audit-write-error-p rolls back a transaction, which needs audit-exchanges >= "
              + AuditWriter.TRANSACTION_EXCHANGES
              + ", got "
              + exchanges);
    }
    if (workers < 1 || workers > MAX_AUDIT_WORKERS) {
      problems.add("audit-workers must be in [1, " + MAX_AUDIT_WORKERS + "], got " + workers);
    }
    if (lock == null) {
      problems.add("audit-lock must be global, per-community or none, got null");
    }
  }

  /** Which lease and chain each audit entry is written under. */
  AuditLocks auditLocks() {
    return new AuditLocks(auditLock, auditWorkers, communities);
  }

  /** Limit per (community, pubkey) per window, events. */
  public int limiterLimitPerWindow() {
    return limiterEventsPerSecond * limiterWindowSeconds;
  }

  /** Limit per (community, remote IP address) per window, events; 0 when there is none. */
  public int limiterPerIpLimitPerWindow() {
    return limiterPerIpEventsPerSecond * limiterWindowSeconds;
  }

  /** True when events are also limited per remote IP address. */
  public boolean limiterPerIpOn() {
    return limiterPerIpEventsPerSecond > 0;
  }

  /** The defaults of every flag, serving {@code a.localhost} and {@code b.localhost}. */
  public static ReferenceRelayConfig defaults() {
    return fromArgs(new String[0]);
  }

  /** One line naming every setting, for logs and run metadata. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "port=%d db_port=%d data_dir=%s reset=%s communities=%s default_community=%s audit=%s"
            + " audit_queue_capacity=%d audit_exchange_delay_ms=%s audit_exchanges=%d"
            + " audit_workers=%d audit_lock=%s limiter=%d/s x %ds (%d per window)"
            + " limiter_per_ip=%s reject_mode=%s verify_signatures=%s db=%s"
            + " synchronous_commit=%s max_frame_bytes=%d faults=%s",
        port,
        dbPort,
        dataDir.map(Path::toString).orElse("(temp)"),
        reset,
        String.join(",", communities),
        defaultCommunity.orElse("(none)"),
        auditOn ? "on" : "off",
        auditQueueCapacity,
        auditExchangeDelayMillis,
        auditExchanges,
        auditWorkers,
        auditLock.flagValue(),
        limiterEventsPerSecond,
        limiterWindowSeconds,
        limiterLimitPerWindow(),
        limiterPerIpOn()
            ? limiterPerIpEventsPerSecond
                + "/s x "
                + limiterWindowSeconds
                + "s ("
                + limiterPerIpLimitPerWindow()
                + " per window)"
            : "off",
        rejectMode.flagValue(),
        verifySignatures,
        jdbcUrl.orElse("embedded-h2") + dbConnect.map(a -> " via " + a).orElse(""),
        synchronousCommit ? "on" : "off",
        maxFrameBytes,
        faults.any() ? faults.toString() : "none");
  }

  /**
   * Parses the command line ({@link ReferenceRelayArgs}). Every problem (unknown flag, missing
   * value, unparsable number, out of range) is collected and thrown together.
   *
   * @throws ReferenceRelayConfigException listing every problem
   */
  public static ReferenceRelayConfig fromArgs(String[] args) {
    return ReferenceRelayArgs.parse(args);
  }
}
