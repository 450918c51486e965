package dev.ceiling.relay;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Writes one audit row as a fixed number of sequential exchanges on one connection, each preceded
 * by the injected delay. With six (the default): take the lease, BEGIN, read the chain head, INSERT
 * the hash-chained row, COMMIT, give the lease back. More than six add read-backs of the new row
 * (inside the transaction, after the INSERT); four or five drop BEGIN and COMMIT, so the INSERT
 * commits on its own (the lease still guards the chain) and five reads the row back once. Every
 * step is one statement sent on its own, so each is a real round trip (no batching, no
 * driver-implicit transaction start).
 *
 * <p>The lease is held from the end of its own exchange to the end of the give-back, and the next
 * holder's take is one more exchange, so a contended lease passes at most one entry per {@code
 * exchanges x (delay + cost)}: every exchange of the write counts as held.
 *
 * <p>How the lease is taken and given back, per database, is {@link Lease}'s.
 *
 * <p>Not thread-safe: one writer per connection, used by one thread.
 */
final class AuditWriter implements AutoCloseable {
  /** Exchanges per entry by default. */
  static final int EXCHANGES = 6;

  /** Fewest exchanges: take, head, INSERT, give back. */
  static final int MIN_EXCHANGES = 4;

  /** From this many exchanges the row is written inside BEGIN .. COMMIT. */
  static final int TRANSACTION_EXCHANGES = 6;

  /**
   * Where the lease time of one written entry went.
   *
   * @param waitNanos time in the take step beyond its first delay: the round trip(s), and any time
   *     the lease was held by another writer
   * @param heldNanos from holding the lease to having given it back
   * @param contendedNanos the part of the take spent because another writer held the lease: from
   *     the first ask to the start of the ask that got it (asks that found it taken, the waits
   *     between them and their delays); 0 when the first ask got it. On PostgreSQL a blocking
   *     {@code pg_advisory_lock} after a failed try counts whole, its own round trip included.
   */
  record LeaseTimes(long waitNanos, long heldNanos, long contendedNanos) {}

  private final Connection connection;
  private final int exchanges;
  private final Lease lease;
  private final Statement plain;
  private final Map<String, TableStatements> tables = new HashMap<>();

  /**
   * Called once per delayed exchange with how late its delay ended, ns (the relay counts both; a
   * calibration does not).
   */
  private final LongConsumer exchanged;

  /** The statements that name the chain's table, prepared once per table. */
  private record TableStatements(
      PreparedStatement head, PreparedStatement insert, PreparedStatement readBack) {}

  AuditWriter(
      AuditDatabase db, String holder, int exchanges, LeaseBoard board, LongConsumer exchanged)
      throws SQLException {
    if (exchanges < MIN_EXCHANGES) {
      throw new IllegalArgumentException(
          "exchanges must be >= " + MIN_EXCHANGES + ", got " + exchanges);
    }
    this.connection = db.open();
    this.exchanges = exchanges;
    this.exchanged = exchanged;
    try {
      lease = new Lease(connection, db.dialect(), holder, board, exchanged);
      plain = connection.createStatement();
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
  }

  /** The names of the steps of a write of {@code exchanges} exchanges, in order. */
  static List<String> stepNames(int exchanges) {
    boolean txn = exchanges >= TRANSACTION_EXCHANGES;
    List<String> out = new ArrayList<>(List.of("lock"));
    if (txn) {
      out.add("begin");
    }
    out.add("head");
    out.add("insert");
    int readBacks = exchanges - (txn ? TRANSACTION_EXCHANGES : MIN_EXCHANGES);
    for (int i = 1; i <= readBacks; i++) {
      out.add(readBacks == 1 ? "read_back" : "read_back_" + i);
    }
    if (txn) {
      out.add("commit");
    }
    out.add("unlock");
    return out;
  }

  /**
   * Writes {@code entry} to {@code chain}; {@code stepNanos} (one slot per exchange, may be null)
   * receives each exchange's duration including its delay. When {@code failBeforeCommit} the
   * transaction is rolled back in place of COMMIT (the injected write error) and a {@link
   * SQLException} is thrown after the lease is given back.
   *
   * @throws SQLException on any database error (the caller counts it as a write error)
   */
  LeaseTimes write(
      AuditLocks.Chain chain,
      AuditEntry entry,
      long delayNanos,
      long[] stepNanos,
      boolean failBeforeCommit)
      throws SQLException {
    if (failBeforeCommit && exchanges < TRANSACTION_EXCHANGES) {
      throw new IllegalStateException("a write without a transaction has nothing to roll back");
    }
    TableStatements t = statements(chain.table());
    Steps steps = new Steps(stepNanos);
    boolean txn = exchanges >= TRANSACTION_EXCHANGES;
    boolean locked = false;
    boolean inTxn = false;
    try {
      delayed(delayNanos);
      long asked = System.nanoTime();
      long contended = lease.take(chain.lockId(), delayNanos);
      locked = true;
      long lockedAt = steps.mark();
      if (txn) {
        delayed(delayNanos);
        plain.execute("BEGIN");
        inTxn = true;
        steps.mark();
      }
      delayed(delayNanos);
      long seq;
      String prev;
      try (ResultSet r = t.head().executeQuery()) {
        if (r.next()) {
          seq = r.getLong(1) + 1;
          prev = r.getString(2).trim();
        } else {
          seq = 1;
          prev = AuditChain.GENESIS;
        }
      }
      steps.mark();
      delayed(delayNanos);
      insert(t.insert(), entry, seq, prev);
      steps.mark();
      for (int i = exchanges - (txn ? TRANSACTION_EXCHANGES : MIN_EXCHANGES); i > 0; i--) {
        delayed(delayNanos);
        readBack(t.readBack(), seq);
        steps.mark();
      }
      if (txn) {
        delayed(delayNanos);
        plain.execute(failBeforeCommit ? "ROLLBACK" : "COMMIT");
        inTxn = false;
        steps.mark();
      }
      delayed(delayNanos);
      lease.give(chain.lockId());
      locked = false;
      long releasedAt = steps.mark();
      if (failBeforeCommit) {
        throw new SQLException("injected audit write error (--fault-audit-write-error-p)");
      }
      return new LeaseTimes(lockedAt - asked, releasedAt - lockedAt, contended);
    } finally {
      if (inTxn) {
        rollbackQuietly();
      }
      if (locked) {
        lease.giveQuietly(chain.lockId());
      }
    }
  }

  /** One exchange's injected delay, counted. */
  private void delayed(long delayNanos) {
    exchanged.accept(pause(delayNanos));
  }

  /** Empties the table (used for the calibration scratch table). */
  void truncate(String table) throws SQLException {
    plain.execute("DELETE FROM " + table);
  }

  private TableStatements statements(String table) throws SQLException {
    TableStatements t = tables.get(table);
    if (t == null) {
      t =
          new TableStatements(
              // MAX(seq) is a direct index lookup in H2 (ORDER BY seq DESC LIMIT 1 costs ~10x
              // more).
              connection.prepareStatement(
                  "SELECT seq, hash FROM "
                      + table
                      + " WHERE seq = (SELECT MAX(seq) FROM "
                      + table
                      + ")"),
              connection.prepareStatement(
                  "INSERT INTO "
                      + table
                      + " (seq, community, event_id, pubkey, kind, created_at, prev_hash, hash,"
                      + " logged_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
              connection.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE seq = ?"));
      tables.put(table, t);
    }
    return t;
  }

  private static void insert(PreparedStatement insert, AuditEntry entry, long seq, String prev)
      throws SQLException {
    insert.setLong(1, seq);
    insert.setString(2, entry.community());
    insert.setString(3, entry.eventId());
    insert.setString(4, entry.pubkey());
    insert.setInt(5, entry.kind());
    insert.setLong(6, entry.createdAt());
    insert.setString(7, prev);
    insert.setString(
        8,
        AuditChain.hash(
            prev,
            seq,
            entry.community(),
            entry.eventId(),
            entry.pubkey(),
            entry.kind(),
            entry.createdAt()));
    insert.setLong(9, System.currentTimeMillis());
    insert.executeUpdate();
  }

  private static void readBack(PreparedStatement readBack, long seq) throws SQLException {
    readBack.setLong(1, seq);
    try (ResultSet r = readBack.executeQuery()) {
      if (!r.next() || r.getLong(1) != 1) {
        throw new SQLException("audit row " + seq + " was not there to read back");
      }
    }
  }

  private void rollbackQuietly() {
    try {
      plain.execute("ROLLBACK");
    } catch (SQLException e) {
      // The connection may be gone; the caller reconnects and the lease is reset by its give.
    }
  }

  /** Times the steps of one write into their slots, each from the end of the one before. */
  private static final class Steps {
    private final long[] slots;
    private int next;
    private long last = System.nanoTime();

    Steps(long[] slots) {
      this.slots = slots;
    }

    long mark() {
      long now = System.nanoTime();
      if (slots != null) {
        slots[next] += now - last;
      }
      next++;
      last = now;
      return now;
    }
  }

  /**
   * Waits {@code nanos} precisely: parks for most of it (parkNanos overshoots by tens of µs) and
   * spins through the rest, so an injected 0.2 ms is 0.2 ms, not 0.26 ms. Returns how late it
   * ended, ns: more than 0 only when the park itself overshot past the spin's margin.
   */
  static long pause(long nanos) {
    if (nanos <= 0) {
      return 0;
    }
    long deadline = System.nanoTime() + nanos;
    long slack = 80_000;
    if (nanos > slack) {
      LockSupport.parkNanos(nanos - slack);
    }
    long now;
    while ((now = System.nanoTime()) < deadline) {
      Thread.onSpinWait();
    }
    return now - deadline;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // Closing a broken connection has nothing left to release.
    }
  }
}
