package dev.ceiling.relay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The audit database: by default an H2 TCP server on 127.0.0.1 inside this process, reached over
 * JDBC on loopback so each statement is a real network round trip; or an external database named by
 * a JDBC URL (PostgreSQL, or another H2).
 *
 * <p>Tables: {@code audit_lock} (lease rows: id 1 guards the audit log's first chain, id 2 the
 * calibration scratch table, {@code 100 + k} chain {@code k}), {@code audit_log} (the first hash
 * chain), {@code audit_log_k} (chain {@code k > 0}, when the lock mode has more than one: {@link
 * AuditLocks}) and {@code audit_calibration} (same shape, scratch). Thread-safe: every caller opens
 * its own connection.
 */
public final class AuditDatabase implements AutoCloseable {
  static {
    // H2 reads its bind address once, when its SysProperties class loads: set it before any H2
    // class is touched so the TCP server listens on loopback only.
    if (System.getProperty("h2.bindAddress") == null) {
      System.setProperty("h2.bindAddress", "127.0.0.1");
    }
  }

  /** SQL dialect of the database in use. */
  public enum Dialect {
    H2,
    POSTGRESQL
  }

  /** Lock row / advisory key guarding the audit log. */
  public static final int AUDIT_LOCK_ID = 1;

  /** Lock row / advisory key guarding the calibration scratch table. */
  public static final int CALIBRATION_LOCK_ID = 2;

  private final org.h2.tools.Server h2Server;
  private final Path tempDir;
  private final String jdbcUrl;
  private final String observerUrl;
  private final String user;
  private final String password;
  private final Dialect dialect;
  private final boolean synchronousCommit;
  private List<AuditLocks.Chain> chains = List.of(AuditLocks.chain(0));

  private AuditDatabase(
      org.h2.tools.Server h2Server,
      Path tempDir,
      String jdbcUrl,
      String observerUrl,
      String user,
      String password,
      Dialect dialect,
      boolean synchronousCommit) {
    this.h2Server = h2Server;
    this.tempDir = tempDir;
    this.jdbcUrl = jdbcUrl;
    this.observerUrl = observerUrl;
    this.user = user;
    this.password = password;
    this.dialect = dialect;
    this.synchronousCommit = synchronousCommit;
  }

  /**
   * Starts the embedded H2 TCP server (or attaches to {@code externalUrl}) and creates the schema.
   *
   * @param dbPort H2 TCP port on 127.0.0.1, 0 = ephemeral
   * @param dataDir directory of the database files; empty = a temporary one deleted on close
   * @param reset drop the audit tables first
   * @param externalUrl use this database instead of the embedded H2
   * @param connect where the audit path's connections reach the database ({@code host:port}), e.g.
   *     a delay proxy in front of it; empty = the server's own address. With {@code externalUrl} it
   *     replaces a PostgreSQL URL's address
   * @param synchronousCommit PostgreSQL's synchronous_commit for every connection
   * @param chains the chains entries are written to (their tables and lease rows are created)
   * @throws SQLException when the server cannot start or the schema cannot be created
   */
  static AuditDatabase start(
      int dbPort,
      Optional<Path> dataDir,
      boolean reset,
      Optional<String> externalUrl,
      Optional<String> connect,
      boolean synchronousCommit,
      List<AuditLocks.Chain> chains)
      throws SQLException, IOException {
    AuditDatabase db;
    if (externalUrl.isPresent()) {
      String url = externalUrl.get();
      Dialect d = url.startsWith("jdbc:postgresql:") ? Dialect.POSTGRESQL : Dialect.H2;
      // Credentials ride in the URL (?user=..&password=..) for PostgreSQL; H2 defaults to sa.
      // As with H2, the row count reads the database directly, not through a proxy on the link.
      String path = connect.map(a -> withAddress(url, a)).orElse(url);
      if (path == null) {
        throw new IllegalArgumentException(
            "db-connect needs a jdbc:postgresql://HOST:PORT/... URL, got " + url);
      }
      db = new AuditDatabase(null, null, path, url, null, null, d, synchronousCommit);
    } else {
      Path tmp = null;
      Path dir;
      if (dataDir.isPresent()) {
        dir = dataDir.get().toAbsolutePath();
        Files.createDirectories(dir);
      } else {
        tmp = Files.createTempDirectory("refrelay-db");
        dir = tmp;
      }
      org.h2.tools.Server server =
          org.h2.tools.Server.createTcpServer(
                  "-tcpPort", Integer.toString(dbPort), "-ifNotExists", "-baseDir", dir.toString())
              .start();
      String own = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/audit";
      String url = connect.map(a -> "jdbc:h2:tcp://" + a + "/audit").orElse(own);
      // The row count is the metrics' observation, not the audit path: it reads the server
      // directly, so that scraping does not add exchanges to the link a delay sweep counts.
      db = new AuditDatabase(server, tmp, url, own, "sa", "", Dialect.H2, synchronousCommit);
    }
    db.chains = List.copyOf(chains);
    try {
      db.createSchema(reset);
    } catch (SQLException | RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  /**
   * A PostgreSQL JDBC URL with its host and port replaced by {@code address} ({@code host:port}),
   * everything else kept; null when the URL is not {@code jdbc:postgresql://HOST:PORT/...}.
   */
  static String withAddress(String jdbcUrl, String address) {
    java.net.URI u;
    try {
      u = java.net.URI.create(jdbcUrl.substring(jdbcUrl.startsWith("jdbc:") ? 5 : 0));
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (!jdbcUrl.startsWith("jdbc:postgresql://") || u.getHost() == null || u.getPort() < 0) {
      return null;
    }
    String query = u.getRawQuery() == null ? "" : "?" + u.getRawQuery();
    return "jdbc:postgresql://" + address + u.getRawPath() + query;
  }

  /** The JDBC URL every connection uses (for the embedded H2: jdbc:h2:tcp://127.0.0.1:p/audit). */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** The embedded H2 TCP port, or empty with an external database. */
  public Optional<Integer> h2Port() {
    return h2Server == null ? Optional.empty() : Optional.of(h2Server.getPort());
  }

  /** Dialect in use. */
  public Dialect dialect() {
    return dialect;
  }

  /**
   * Opens a connection in autocommit mode: the audit exchanges issue BEGIN and COMMIT as explicit
   * statements so that each of the six steps is exactly one statement, one round trip.
   */
  public Connection open() throws SQLException {
    return open(jdbcUrl);
  }

  private Connection open(String url) throws SQLException {
    Connection c =
        user == null
            ? DriverManager.getConnection(url)
            : DriverManager.getConnection(url, user, password);
    c.setAutoCommit(true);
    if (dialect == Dialect.POSTGRESQL) {
      try (Statement s = c.createStatement()) {
        s.execute("SET synchronous_commit = " + (synchronousCommit ? "on" : "off"));
      }
    }
    return c;
  }

  /**
   * Rows in the audit log, every chain's, read from the database (the embedded server directly,
   * never through {@code connect}).
   */
  public long auditRows() throws SQLException {
    long rows = 0;
    try (Connection c = open(observerUrl);
        Statement s = c.createStatement()) {
      for (AuditLocks.Chain chain : chains) {
        try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + chain.table())) {
          r.next();
          rows += r.getLong(1);
        }
      }
    }
    return rows;
  }

  /** The tables of the chains entries are written to, the first being {@code audit_log}. */
  public List<String> chainTables() {
    return chains.stream().map(AuditLocks.Chain::table).toList();
  }

  private void createSchema(boolean reset) throws SQLException {
    try (Connection c = open();
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>(chainTables());
      if (!tables.contains("audit_log")) {
        tables.add(0, "audit_log");
      }
      tables.add("audit_calibration");
      if (reset) {
        for (String table : tables) {
          s.execute("DROP TABLE IF EXISTS " + table);
        }
        s.execute("DROP TABLE IF EXISTS audit_lock");
      }
      s.execute(
          "CREATE TABLE IF NOT EXISTS audit_lock (id INT PRIMARY KEY, holder VARCHAR(64),"
              + " acquired_at_ms BIGINT)");
      for (String table : tables) {
        s.execute(
            "CREATE TABLE IF NOT EXISTS "
                + table
                + " (seq BIGINT PRIMARY KEY, community VARCHAR(255) NOT NULL,"
                + " event_id CHAR(64) NOT NULL, pubkey CHAR(64) NOT NULL, kind INT NOT NULL,"
                + " created_at BIGINT NOT NULL, prev_hash CHAR(64) NOT NULL,"
                + " hash CHAR(64) NOT NULL, logged_at_ms BIGINT NOT NULL)");
      }
      List<Integer> leases = new ArrayList<>(List.of(AUDIT_LOCK_ID, CALIBRATION_LOCK_ID));
      chains.stream()
          .map(AuditLocks.Chain::lockId)
          .filter(id -> !leases.contains(id))
          .forEach(leases::add);
      for (int id : leases) {
        try (PreparedStatement q =
            c.prepareStatement("SELECT COUNT(*) FROM audit_lock WHERE id = ?")) {
          q.setInt(1, id);
          try (ResultSet r = q.executeQuery()) {
            r.next();
            if (r.getLong(1) == 0) {
              try (PreparedStatement ins =
                  c.prepareStatement("INSERT INTO audit_lock (id, holder) VALUES (?, NULL)")) {
                ins.setInt(1, id);
                ins.executeUpdate();
              }
            }
          }
        }
      }
      // A relay killed while holding a lease must not wedge its successor.
      s.execute("UPDATE audit_lock SET holder = NULL, acquired_at_ms = NULL");
      s.execute("DELETE FROM audit_calibration");
    }
  }

  @Override
  public void close() {
    if (h2Server != null) {
      h2Server.stop();
    }
    if (tempDir != null) {
      try (Stream<Path> walk = Files.walk(tempDir)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // A leftover temp directory is harmless; closing must not fail because of it.
      }
    }
  }
}
