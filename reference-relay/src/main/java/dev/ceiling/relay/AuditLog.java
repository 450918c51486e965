package dev.ceiling.relay;

import java.sql.SQLException;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The audit path of the treatment arm: a bounded queue that connection handlers block on before
 * they send OK, drained serially by ONE worker thread that writes each entry with six sequential
 * database exchanges ({@link AuditWriter}).
 *
 * <p>Thread-safe: {@link #enqueue} is called by many connection handlers at once.
 */
final class AuditLog implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());

  /** Why an enqueue failed. */
  static final class EnqueueException extends Exception {
    private static final long serialVersionUID = 1L;

    EnqueueException(String message) {
      super(message);
    }
  }

  private final AuditDatabase db;
  private final ArrayBlockingQueue<AuditEntry> queue;
  private final long delayNanos;
  private final RelayMetrics metrics;
  private final double writeErrorProbability;
  private final long dieAfterEntries;
  private final Random faultRandom;
  private final Thread worker;
  private final AtomicInteger highWater = new AtomicInteger();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong processed = new AtomicLong();
  private final AtomicLong enqueued = new AtomicLong();
  private volatile boolean running = true;
  private volatile boolean workerAlive = true;

  AuditLog(
      AuditDatabase db,
      int capacity,
      double delayMillis,
      RelayMetrics metrics,
      double writeErrorProbability,
      long dieAfterEntries,
      long seed)
      throws SQLException {
    this.db = db;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.delayNanos = Math.round(delayMillis * 1_000_000);
    this.metrics = metrics;
    this.writeErrorProbability = writeErrorProbability;
    this.dieAfterEntries = dieAfterEntries;
    this.faultRandom = new Random(seed);
    AuditWriter writer =
        new AuditWriter(db, "audit_log", AuditDatabase.AUDIT_LOCK_ID, "audit-worker");
    this.worker = new Thread(() -> drain(writer), "refrelay-audit-worker");
    worker.setDaemon(true);
    worker.start();
  }

  /** Entries waiting now. */
  int depth() {
    return queue.size();
  }

  /** Largest depth seen. */
  int highWater() {
    return highWater.get();
  }

  /** Entries the worker committed. */
  long written() {
    return written.get();
  }

  /** Entries the worker took off the queue (committed or failed). */
  long processed() {
    return processed.get();
  }

  /**
   * Blocks until the entry is in the queue: the backpressure on the OK path. Fails when the worker
   * is gone (it will never drain again) or the log is closing.
   */
  void enqueue(AuditEntry entry) throws EnqueueException, InterruptedException {
    // offer-with-timeout in a loop rather than put(): a blocked handler must notice a dead worker
    // instead of waiting forever on a queue nobody drains.
    while (true) {
      if (!workerAlive || !running) {
        metrics.auditEnqueueErrors.inc();
        throw new EnqueueException("audit worker is not running");
      }
      if (queue.offer(entry, 50, TimeUnit.MILLISECONDS)) {
        enqueued.incrementAndGet();
        int d = queue.size();
        highWater.accumulateAndGet(d, Math::max);
        return;
      }
    }
  }

  private void drain(AuditWriter initial) {
    AuditWriter writer = initial;
    try {
      while (running) {
        AuditEntry e;
        try {
          e = queue.poll(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
        if (e == null) {
          continue;
        }
        boolean fail =
            writeErrorProbability > 0 && faultRandom.nextDouble() < writeErrorProbability;
        long t0 = System.nanoTime();
        try {
          if (writer == null) {
            writer = new AuditWriter(db, "audit_log", AuditDatabase.AUDIT_LOCK_ID, "audit-worker");
          }
          writer.write(e, delayNanos, null, fail);
          written.incrementAndGet();
        } catch (SQLException ex) {
          metrics.auditWriteErrors.inc();
          if (!fail) {
            LOG.log(Level.WARNING, "audit write failed for event " + e.eventId(), ex);
            // The connection may be broken: start a fresh one for the next entry.
            if (writer != null) {
              writer.close();
            }
            writer = null;
          }
        } finally {
          metrics.auditLogSeconds.observe((System.nanoTime() - t0) / 1e9);
          processed.incrementAndGet();
        }
        if (dieAfterEntries > 0 && processed.get() >= dieAfterEntries) {
          LOG.warning(
              "audit worker exits after "
                  + dieAfterEntries
                  + " entries (--fault-worker-dies-after)");
          return;
        }
      }
    } finally {
      workerAlive = false;
      if (writer != null) {
        writer.close();
      }
    }
  }

  /** Waits until the queue is empty and the worker idle, or the timeout passes. */
  boolean awaitDrained(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (System.nanoTime() < deadline) {
      if (!workerAlive || processed.get() == enqueued.get()) {
        return true;
      }
      Thread.sleep(5);
    }
    return false;
  }

  @Override
  public void close() {
    running = false;
    worker.interrupt();
    try {
      worker.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
