package dev.ceiling.relay;

import dev.ceiling.core.model.ReadyLine;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The built-in system under test: a Nostr relay (Jetty 12 WebSocket on 127.0.0.1) serving several
 * communities resolved by Host, with an admission limiter, real BIP-340 checks, and — in the
 * treatment arm — an audit log on the OK path (bounded queue, {@code --audit-workers} workers,
 * {@code --audit-exchanges} database exchanges per entry against an H2 TCP server on loopback).
 *
 * <p>Use {@link #start(ReferenceRelayConfig)}; the returned handle is {@link AutoCloseable} and
 * {@link #close()} is idempotent. Thread-safe.
 */
public final class ReferenceRelay implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ReferenceRelay.class.getName());

  private final ReferenceRelayConfig config;
  private final AuditDatabase db;
  private final AuditLog audit;
  private final RelayMetrics metrics;
  private final Server server;
  private final ExecutorService handlers;
  private final int port;
  private final InjectedDelay delay;
  private volatile Calibration calibration;
  private final AtomicLong lastRows = new AtomicLong();
  private volatile boolean closed;

  /**
   * The system property that moves the WebSocket/HTTP listener off 127.0.0.1: {@value}. Only for a
   * relay inside a network namespace the operator made for a multi-host test (ScaleOutNetnsIT,
   * docs/SCALE_OUT.md), where loopback cannot be reached from the generators' namespaces; it is
   * explicit, never a default, and the audit database stays on loopback.
   */
  public static final String BIND_ADDRESS_PROPERTY = "ceiling.relay.bind-address";

  /** The listener's address: {@link #BIND_ADDRESS_PROPERTY}, else 127.0.0.1. */
  static String bindAddress() {
    String a = System.getProperty(BIND_ADDRESS_PROPERTY);
    return a == null || a.isBlank() ? "127.0.0.1" : a.trim();
  }

  private ReferenceRelay(
      ReferenceRelayConfig config,
      AuditDatabase db,
      AuditLog audit,
      RelayMetrics metrics,
      Server server,
      ExecutorService handlers,
      int port,
      Calibration calibration,
      InjectedDelay delay) {
    this.config = config;
    this.delay = delay;
    this.db = db;
    this.audit = audit;
    this.metrics = metrics;
    this.server = server;
    this.handlers = handlers;
    this.port = port;
    this.calibration = calibration;
  }

  /**
   * Starts the database, calibrates, starts the audit worker (arm on) and the server; returns when
   * the relay accepts connections.
   *
   * @throws IOException when a port cannot be bound or the database cannot start
   */
  public static ReferenceRelay start(ReferenceRelayConfig config) throws IOException {
    InjectedDelay delay = new InjectedDelay(config.auditExchangeDelayMillis());
    return start(config, delay, db -> AuditLog.databaseWriters(db, config.auditExchanges(), delay));
  }

  /**
   * Starts the relay with {@code writers} as its audit path's exchanges (the seam test relays use;
   * {@link #start(ReferenceRelayConfig)} passes the database's).
   */
  static ReferenceRelay start(
      ReferenceRelayConfig config, Function<AuditDatabase, AuditLog.Writers> writers)
      throws IOException {
    return start(config, new InjectedDelay(config.auditExchangeDelayMillis()), writers);
  }

  /**
   * Starts the relay; {@code delay} is the one {@code PUT /audit-exchange-delay} moves, which the
   * database's writers read (a test relay's writers may ignore it).
   */
  private static ReferenceRelay start(
      ReferenceRelayConfig config,
      InjectedDelay delay,
      Function<AuditDatabase, AuditLog.Writers> writers)
      throws IOException {
    AuditDatabase db = null;
    AuditLog audit = null;
    ExecutorService handlers = null;
    Server server = null;
    try {
      AuditLocks locks = config.auditLocks();
      db =
          AuditDatabase.start(
              config.dbPort(),
              config.dataDir(),
              config.reset(),
              config.jdbcUrl(),
              config.dbConnect(),
              config.synchronousCommit(),
              locks.all());
      Calibration cal =
          Calibration.run(
              db,
              config.calibrationRuns(),
              config.auditExchangeDelayMillis(),
              Calibration.Shape.of(config));
      LOG.info("calibration: " + cal.toJson());

      Holder holder = new Holder();
      RelayMetrics metrics =
          new RelayMetrics(
              config.communities(),
              () -> holder.audit == null ? 0 : holder.audit.depth(),
              () -> holder.audit == null ? 0 : holder.audit.highWater(),
              () -> holder.relay == null ? Double.NaN : holder.relay.auditRows());
      metrics.calibrated(cal);
      metrics.track(delay);
      if (config.auditOn()) {
        audit = new AuditLog(writers.apply(db), config, locks, metrics);
        holder.audit = audit;
      }
      RelayCore core =
          new RelayCore(
              config,
              metrics,
              new AdmissionLimits(
                  new AdmissionLimiter(
                      config.limiterLimitPerWindow(),
                      TimeUnit.SECONDS.toNanos(config.limiterWindowSeconds()),
                      System::nanoTime),
                  config.limiterPerIpOn()
                      ? Optional.of(
                          new AdmissionLimiter(
                              config.limiterPerIpLimitPerWindow(),
                              TimeUnit.SECONDS.toNanos(config.limiterWindowSeconds()),
                              System::nanoTime))
                      : Optional.empty()),
              new EventStore(config.communities(), config.storeCapacity()),
              audit,
              new FaultDice(config.faults()));
      handlers = Executors.newCachedThreadPool(daemonThreads("refrelay-conn-"));

      QueuedThreadPool pool = new QueuedThreadPool(64, 4, (int) Duration.ofMinutes(1).toMillis());
      pool.setName("refrelay-jetty");
      pool.setDaemon(true);
      server = new Server(pool);
      ServerConnector connector = new ServerConnector(server, 1, 1);
      connector.setHost(bindAddress());
      connector.setPort(config.port());
      server.addConnector(connector);
      ExecutorService h = handlers;
      WebSocketUpgradeHandler ws =
          WebSocketUpgradeHandler.from(
              server,
              container -> {
                // Jetty closes with 1009 (MESSAGE_TOO_LARGE) when a text message exceeds this.
                container.setMaxTextMessageSize(config.maxFrameBytes());
                container.setMaxBinaryMessageSize(config.maxFrameBytes());
                container.setIdleTimeout(Duration.ofMinutes(10));
                container.addMapping(
                    "/",
                    (req, resp, cb) -> {
                      String host = req.getHeaders().get(HttpHeader.HOST);
                      return new RelaySession(
                          core, communityFor(config, host).orElse(null), host, h);
                    });
              });
      ws.setHandler(new HttpEndpoints(holder));
      server.setHandler(ws);
      server.setStopTimeout(500);
      server.start();
      int boundPort = connector.getLocalPort();
      ReferenceRelay relay =
          new ReferenceRelay(config, db, audit, metrics, server, handlers, boundPort, cal, delay);
      holder.relay = relay;
      return relay;
    } catch (Exception e) {
      if (server != null) {
        try {
          server.stop();
        } catch (Exception ignored) {
          // Reporting the start failure matters more than a failed cleanup.
        }
      }
      if (handlers != null) {
        handlers.shutdownNow();
      }
      if (audit != null) {
        audit.close();
      }
      if (db != null) {
        db.close();
      }
      if (e instanceof IOException io) {
        throw io;
      }
      throw new IOException("reference relay failed to start: " + e, e);
    }
  }

  /** Resolves a Host header (host or host:port, IPv6 in brackets) to a community. */
  static Optional<String> communityFor(ReferenceRelayConfig config, String hostHeader) {
    if (hostHeader != null) {
      String h = hostHeader.trim().toLowerCase(Locale.ROOT);
      if (h.startsWith("[")) {
        int end = h.indexOf(']');
        h = end < 0 ? h : h.substring(0, end + 1);
      } else {
        int colon = h.lastIndexOf(':');
        if (colon >= 0) {
          h = h.substring(0, colon);
        }
      }
      if (config.communities().contains(h)) {
        return Optional.of(h);
      }
    }
    return config.defaultCommunity();
  }

  /** The bound WebSocket/HTTP port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The embedded H2 TCP port, or empty when an external database is used. */
  public Optional<Integer> dbPort() {
    return db.h2Port();
  }

  /** JDBC URL of the audit database (to verify the chain from outside). */
  public String jdbcUrl() {
    return db.jdbcUrl();
  }

  /** The configuration this relay runs with. */
  public ReferenceRelayConfig config() {
    return config;
  }

  /** The injected delay, which {@code PUT /audit-exchange-delay} moves. */
  InjectedDelay delay() {
    return delay;
  }

  /** The latest calibration. */
  public Calibration calibration() {
    return calibration;
  }

  /** Re-runs the calibration (GET /calibrate) and updates the gauges. */
  public synchronized Calibration recalibrate() throws SQLException {
    Calibration c =
        Calibration.run(
            db,
            config.calibrationRuns(),
            config.auditExchangeDelayMillis(),
            Calibration.Shape.of(config));
    calibration = c;
    metrics.calibrated(c);
    return c;
  }

  /** The Prometheus text exposition, as GET /metrics serves it. */
  public String scrapeMetrics() {
    return metrics.scrape();
  }

  /** Rows in audit_log (from the database; the last value read if the query fails). */
  public long auditRows() {
    try {
      lastRows.set(db.auditRows());
    } catch (SQLException e) {
      LOG.log(Level.FINE, "audit row count failed", e);
    }
    return lastRows.get();
  }

  /**
   * Waits until the audit queue is empty and the worker idle (arm on); true at once with audit off.
   */
  public boolean awaitAuditDrained(Duration timeout) throws InterruptedException {
    return audit == null || audit.awaitDrained(timeout.toMillis());
  }

  /**
   * The one ready line: {@code READY port=<p> db_port=<d> audit=<on|off> exchange_cost_ms=<c>
   * predicted_worker_ceiling_per_s=<x> exchange_cost_hot_ms=<h>
   * predicted_worker_ceiling_hot_per_s=<y> audit_exchanges=<n> audit_workers=<w>
   * audit_lock=<global|per-community|none> predicted_workers_ceiling_per_s=<z>
   * predicted_lock_ceiling_per_s=<l>}; db_port is {@code NA} with an external database, and the
   * lock's prediction without a lock. The plain keys are the cold calibration (with the delay), the
   * hot ones back to back ({@link Calibration}); {@code predicted_worker_ceiling_per_s} is one
   * worker's, {@code predicted_workers_ceiling_per_s} all of them together.
   */
  public String readyLine() {
    Calibration c = calibration;
    Map<String, String> f = new LinkedHashMap<>();
    f.put("port", Integer.toString(port));
    f.put("db_port", db.h2Port().map(String::valueOf).orElse(ReadyLine.NOT_APPLICABLE));
    f.put("audit", config.auditOn() ? "on" : "off");
    f.put("exchange_cost_ms", c == null ? ReadyLine.NOT_APPLICABLE : c.exchangeCostMillisText());
    f.put(
        "predicted_worker_ceiling_per_s",
        c == null ? ReadyLine.NOT_APPLICABLE : c.predictedCeilingText());
    f.put(
        "exchange_cost_hot_ms",
        c == null ? ReadyLine.NOT_APPLICABLE : c.hotExchangeCostMillisText());
    f.put(
        "predicted_worker_ceiling_hot_per_s",
        c == null ? ReadyLine.NOT_APPLICABLE : c.predictedHotCeilingText());
    f.put("audit_exchanges", Integer.toString(config.auditExchanges()));
    f.put("audit_workers", Integer.toString(config.auditWorkers()));
    f.put("audit_lock", config.auditLock().flagValue());
    f.put(
        "predicted_workers_ceiling_per_s",
        c == null ? ReadyLine.NOT_APPLICABLE : c.predictedWorkersCeilingText());
    f.put(
        "predicted_lock_ceiling_per_s",
        c == null ? ReadyLine.NOT_APPLICABLE : c.predictedLockCeilingText());
    return new ReadyLine(f).format(ReadyLine.PREFIX);
  }

  /** Stops accepting, closes connections, stops the worker and the database. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      server.stop();
    } catch (Exception e) {
      LOG.log(Level.WARNING, "jetty stop failed", e);
    } finally {
      handlers.shutdownNow();
      if (audit != null) {
        audit.close();
      }
      db.close();
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Late-bound references for the metric callbacks and HTTP endpoints. */
  static final class Holder {
    volatile AuditLog audit;
    volatile ReferenceRelay relay;
  }

  /** Whether the audit path is on: GET /health says so. */
  boolean auditOn() {
    return config.auditOn();
  }
}
