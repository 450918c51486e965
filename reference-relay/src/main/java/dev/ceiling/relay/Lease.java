package dev.ceiling.relay;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.LongConsumer;

/**
 * One writer's lease statements on its connection: take a chain's lease, give it back. PostgreSQL
 * asks {@code pg_try_advisory_lock} first, so that an uncontended take is one exchange, and waits
 * in the server with {@code pg_advisory_lock} only when the lease is taken. H2 has no advisory
 * locks: the lease is a row that an UPDATE must claim, and a writer that finds it taken waits on
 * the {@link LeaseBoard} and asks again, each ask a delayed exchange of its own.
 *
 * <p>Not thread-safe: one per connection, used by its writer's thread.
 */
final class Lease {
  /** Longest a writer waits for a lease another writer holds before failing the entry, ms. */
  static final long GIVE_UP_MILLIS = 10_000;

  /** How long one wait for a lease lasts before the writer asks the database again, ms. */
  private static final long POLL_MILLIS = 50;

  private final AuditDatabase.Dialect dialect;
  private final String holder;
  private final LeaseBoard board;
  private final PreparedStatement lock;

  /** PostgreSQL's non-blocking take; null on H2. */
  private final PreparedStatement tryLock;

  private final PreparedStatement unlock;

  /**
   * Called once per delayed re-ask of a taken lease, with its lateness (the writer counts the
   * rest).
   */
  private final LongConsumer exchanged;

  /** Prepares the statements on {@code connection}, which the writer owns and closes. */
  Lease(
      Connection connection,
      AuditDatabase.Dialect dialect,
      String holder,
      LeaseBoard board,
      LongConsumer exchanged)
      throws SQLException {
    this.dialect = dialect;
    this.exchanged = exchanged;
    this.holder = holder;
    this.board = board;
    if (dialect == AuditDatabase.Dialect.POSTGRESQL) {
      tryLock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)");
      lock = connection.prepareStatement("SELECT pg_advisory_lock(?)");
      unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)");
    } else {
      tryLock = null;
      lock =
          connection.prepareStatement(
              "UPDATE audit_lock SET holder = ?, acquired_at_ms = ? WHERE id = ? AND holder IS"
                  + " NULL");
      unlock =
          connection.prepareStatement(
              "UPDATE audit_lock SET holder = NULL, acquired_at_ms = NULL WHERE id = ? AND"
                  + " holder = ?");
    }
  }

  /**
   * Takes the lease; returns the nanoseconds spent because another writer held it (0 when the first
   * ask got it).
   */
  long take(int lockId, long delayNanos) throws SQLException {
    long firstAsk = System.nanoTime();
    if (dialect == AuditDatabase.Dialect.POSTGRESQL) {
      tryLock.setLong(1, lockId);
      try (ResultSet r = tryLock.executeQuery()) {
        r.next();
        if (r.getBoolean(1)) {
          return 0;
        }
      }
      // Taken: wait for it in the server, like the H2 path's board.
      lock.setLong(1, lockId);
      try (ResultSet r = lock.executeQuery()) {
        r.next();
      }
      return System.nanoTime() - firstAsk;
    }
    long giveUp = firstAsk + GIVE_UP_MILLIS * 1_000_000;
    long ask = firstAsk;
    while (true) {
      long generation = board.generation(lockId);
      lock.setString(1, holder);
      lock.setLong(2, System.currentTimeMillis());
      lock.setInt(3, lockId);
      if (lock.executeUpdate() == 1) {
        return ask - firstAsk;
      }
      if (System.nanoTime() > giveUp) {
        throw new SQLException(
            "audit lock " + lockId + " held by another writer for " + GIVE_UP_MILLIS + " ms");
      }
      try {
        board.awaitRelease(lockId, generation, POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while waiting for audit lock " + lockId, e);
      }
      // Asking again is another round trip, with its delay like every other.
      exchanged.accept(AuditWriter.pause(delayNanos));
      ask = System.nanoTime();
    }
  }

  /** Gives the lease back; the H2 path wakes the writers waiting for it. */
  void give(int lockId) throws SQLException {
    if (dialect == AuditDatabase.Dialect.POSTGRESQL) {
      unlock.setLong(1, lockId);
      try (ResultSet r = unlock.executeQuery()) {
        r.next();
        if (!r.getBoolean(1)) {
          throw new SQLException("pg_advisory_unlock(" + lockId + ") found no lock held");
        }
      }
      return;
    }
    unlock.setInt(1, lockId);
    unlock.setString(2, holder);
    int n = unlock.executeUpdate();
    board.released(lockId);
    if (n != 1) {
      throw new SQLException("audit lock " + lockId + " was not held by " + holder);
    }
  }

  /** Gives the lease back after a failure; the failure is what gets reported. */
  void giveQuietly(int lockId) {
    try {
      give(lockId);
    } catch (SQLException e) {
      // Reported by the failure that brought us here.
    }
  }
}
