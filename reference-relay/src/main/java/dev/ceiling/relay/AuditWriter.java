package dev.ceiling.relay;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes one audit row as six sequential exchanges on one connection, each preceded by the injected
 * delay: lock, BEGIN, read the chain head, INSERT the hash-chained row, COMMIT, unlock. Every step
 * is one statement sent on its own, so each is a real round trip (no batching, no driver-implicit
 * transaction start).
 *
 * <p>Lock: PostgreSQL uses {@code pg_advisory_lock}/{@code pg_advisory_unlock}; H2 has no advisory
 * locks, so the lock is a lease row ({@code UPDATE audit_lock SET holder = ? WHERE id = ? AND
 * holder IS NULL}, committed on its own) that must update exactly one row.
 *
 * <p>Not thread-safe: one writer per connection, used by one thread.
 */
final class AuditWriter implements AutoCloseable {
  /** Number of exchanges per entry. */
  static final int EXCHANGES = 6;

  private final Connection connection;
  private final AuditDatabase.Dialect dialect;
  private final int lockId;
  private final String holder;
  private final PreparedStatement lock;
  private final Statement plain;
  private final PreparedStatement head;
  private final PreparedStatement insert;
  private final PreparedStatement unlock;

  AuditWriter(AuditDatabase db, String table, int lockId, String holder) throws SQLException {
    this.connection = db.open();
    this.dialect = db.dialect();
    this.lockId = lockId;
    this.holder = holder;
    try {
      if (dialect == AuditDatabase.Dialect.POSTGRESQL) {
        lock = connection.prepareStatement("SELECT pg_advisory_lock(?)");
        unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)");
      } else {
        lock =
            connection.prepareStatement(
                "UPDATE audit_lock SET holder = ?, acquired_at_ms = ? WHERE id = ? AND holder IS"
                    + " NULL");
        unlock =
            connection.prepareStatement(
                "UPDATE audit_lock SET holder = NULL, acquired_at_ms = NULL WHERE id = ? AND"
                    + " holder = ?");
      }
      plain = connection.createStatement();
      head =
          connection.prepareStatement(
              // MAX(seq) is a direct index lookup in H2 (ORDER BY seq DESC LIMIT 1 costs ~10x
              // more).
              "SELECT seq, hash FROM "
                  + table
                  + " WHERE seq = (SELECT MAX(seq) FROM "
                  + table
                  + ")");
      insert =
          connection.prepareStatement(
              "INSERT INTO "
                  + table
                  + " (seq, community, event_id, pubkey, kind, created_at, prev_hash, hash,"
                  + " logged_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
  }

  /**
   * Writes {@code entry}; {@code stepNanos} (length 6, may be null) receives each exchange's
   * duration including its delay. When {@code failBeforeCommit} the transaction is rolled back in
   * place of COMMIT (the injected write error) and a {@link SQLException} is thrown after the lock
   * is released.
   *
   * @throws SQLException on any database error (the caller counts it as a write error)
   */
  void write(AuditEntry entry, long delayNanos, long[] stepNanos, boolean failBeforeCommit)
      throws SQLException {
    boolean locked = false;
    boolean inTxn = false;
    try {
      long t = System.nanoTime();
      pause(delayNanos);
      acquire();
      locked = true;
      t = mark(stepNanos, 0, t);

      pause(delayNanos);
      plain.execute("BEGIN");
      inTxn = true;
      t = mark(stepNanos, 1, t);

      pause(delayNanos);
      long seq;
      String prev;
      try (ResultSet r = head.executeQuery()) {
        if (r.next()) {
          seq = r.getLong(1) + 1;
          prev = r.getString(2).trim();
        } else {
          seq = 1;
          prev = AuditChain.GENESIS;
        }
      }
      t = mark(stepNanos, 2, t);

      pause(delayNanos);
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
      t = mark(stepNanos, 3, t);

      pause(delayNanos);
      plain.execute(failBeforeCommit ? "ROLLBACK" : "COMMIT");
      inTxn = false;
      t = mark(stepNanos, 4, t);

      pause(delayNanos);
      release();
      locked = false;
      mark(stepNanos, 5, t);
      if (failBeforeCommit) {
        throw new SQLException("injected audit write error (--fault-audit-write-error-p)");
      }
    } finally {
      if (inTxn) {
        rollbackQuietly();
      }
      if (locked) {
        releaseQuietly();
      }
    }
  }

  /** Empties the table (used for the calibration scratch table). */
  void truncate(String table) throws SQLException {
    plain.execute("DELETE FROM " + table);
  }

  private void acquire() throws SQLException {
    if (dialect == AuditDatabase.Dialect.POSTGRESQL) {
      lock.setLong(1, lockId);
      try (ResultSet r = lock.executeQuery()) {
        r.next();
      }
    } else {
      lock.setString(1, holder);
      lock.setLong(2, System.currentTimeMillis());
      lock.setInt(3, lockId);
      int n = lock.executeUpdate();
      if (n != 1) {
        throw new SQLException("audit lock " + lockId + " is held by another writer");
      }
    }
  }

  private void release() throws SQLException {
    if (dialect == AuditDatabase.Dialect.POSTGRESQL) {
      unlock.setLong(1, lockId);
      try (ResultSet r = unlock.executeQuery()) {
        r.next();
        if (!r.getBoolean(1)) {
          throw new SQLException("pg_advisory_unlock(" + lockId + ") found no lock held");
        }
      }
    } else {
      unlock.setInt(1, lockId);
      unlock.setString(2, holder);
      int n = unlock.executeUpdate();
      if (n != 1) {
        throw new SQLException("audit lock " + lockId + " was not held by " + holder);
      }
    }
  }

  private void rollbackQuietly() {
    try {
      plain.execute("ROLLBACK");
    } catch (SQLException e) {
      // The connection may be gone; the caller reconnects and the lease is reset by release.
    }
  }

  private void releaseQuietly() {
    try {
      release();
    } catch (SQLException e) {
      // Reported by the failure that brought us here.
    }
  }

  private static long mark(long[] stepNanos, int i, long start) {
    long now = System.nanoTime();
    if (stepNanos != null) {
      stepNanos[i] += now - start;
    }
    return now;
  }

  /**
   * Waits {@code nanos} precisely: parks for most of it (parkNanos overshoots by tens of µs) and
   * spins through the rest, so an injected 0.2 ms is 0.2 ms, not 0.26 ms.
   */
  static void pause(long nanos) {
    if (nanos <= 0) {
      return;
    }
    long deadline = System.nanoTime() + nanos;
    long slack = 80_000;
    if (nanos > slack) {
      LockSupport.parkNanos(nanos - slack);
    }
    while (System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
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
