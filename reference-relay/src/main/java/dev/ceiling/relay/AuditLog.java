package dev.ceiling.relay;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The audit path of the treatment arm: a bounded queue that connection handlers block on before
 * they send OK, drained by {@code --audit-workers} worker threads, each on its own database
 * connection, that write each entry with {@code --audit-exchanges} sequential exchanges ({@link
 * AuditWriter}) under the lease {@code --audit-lock} names ({@link AuditLocks}).
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

  /**
   * What a worker does with one entry, on a connection of its own: {@link AuditWriter}'s exchanges
   * with the relay's database ({@link #databaseWriters}). A seam for test relays that reuse this
   * path's queue, workers and metrics with other exchanges (the two-link test relay); nothing on
   * the command line selects another writer.
   */
  interface EntryWriter extends AutoCloseable {
    /**
     * Writes {@code entry} under {@code chain}'s lease; when {@code fail}, fails after its
     * exchanges (the injected write error).
     *
     * @throws SQLException on any error on the connection (counted as a write error; the worker
     *     opens a new writer for the next entry)
     */
    AuditWriter.LeaseTimes write(AuditLocks.Chain chain, AuditEntry entry, boolean fail)
        throws SQLException;

    @Override
    void close();
  }

  /** Opens worker {@code worker}'s writer. */
  @FunctionalInterface
  interface Writers {
    EntryWriter open(int worker) throws SQLException;
  }

  /**
   * The relay's own writers: {@code --audit-exchanges} exchanges with its database each, each after
   * {@code delay}'s delay at the entry's start, each counted by it.
   */
  static Writers databaseWriters(AuditDatabase db, int exchanges, InjectedDelay delay) {
    LeaseBoard board = new LeaseBoard();
    return worker -> {
      AuditWriter w =
          new AuditWriter(db, "audit-worker-" + worker, exchanges, board, delay::exchanged);
      return new EntryWriter() {
        @Override
        public AuditWriter.LeaseTimes write(AuditLocks.Chain chain, AuditEntry e, boolean fail)
            throws SQLException {
          return w.write(chain, e, delay.nanos(), null, fail);
        }

        @Override
        public void close() {
          w.close();
        }
      };
    };
  }

  private final Writers writerSource;
  private final ArrayBlockingQueue<AuditEntry> queue;
  private final AuditLocks locks;
  private final RelayMetrics metrics;
  private final double writeErrorProbability;
  private final long dieAfterEntries;
  private final Random faultRandom;
  private final List<Thread> workers = new ArrayList<>();
  private final AtomicInteger workersAlive = new AtomicInteger();
  private final AtomicInteger highWater = new AtomicInteger();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong processed = new AtomicLong();
  private final AtomicLong enqueued = new AtomicLong();
  private volatile boolean running = true;

  AuditLog(Writers writers, ReferenceRelayConfig config, AuditLocks locks, RelayMetrics metrics)
      throws SQLException {
    this.writerSource = writers;
    this.queue = new ArrayBlockingQueue<>(config.auditQueueCapacity());
    this.locks = locks;
    this.metrics = metrics;
    this.writeErrorProbability = config.faults().auditWriteErrorProbability();
    this.dieAfterEntries = config.faults().workerDiesAfterEntries();
    this.faultRandom = new Random(config.faults().seed());
    List<EntryWriter> opened = new ArrayList<>();
    try {
      // Every connection is opened before any worker starts, so a database that refuses the
      // N-th connection fails the start instead of leaving fewer workers than asked for.
      for (int i = 0; i < locks.workers(); i++) {
        opened.add(writers.open(i));
      }
    } catch (SQLException e) {
      opened.forEach(EntryWriter::close);
      throw e;
    }
    for (int i = 0; i < opened.size(); i++) {
      int index = i;
      EntryWriter w = opened.get(i);
      Thread t = new Thread(() -> drain(index, w), "refrelay-audit-worker-" + i);
      t.setDaemon(true);
      workers.add(t);
    }
    workersAlive.set(workers.size());
    workers.forEach(Thread::start);
  }

  /** Entries waiting now. */
  int depth() {
    return queue.size();
  }

  /** Largest depth seen. */
  int highWater() {
    return highWater.get();
  }

  /** Entries the workers committed. */
  long written() {
    return written.get();
  }

  /** Entries the workers took off the queue (committed or failed). */
  long processed() {
    return processed.get();
  }

  /**
   * Blocks until the entry is in the queue: the backpressure on the OK path. Fails when every
   * worker is gone (nobody will drain again) or the log is closing.
   */
  void enqueue(AuditEntry entry) throws EnqueueException, InterruptedException {
    // offer-with-timeout in a loop rather than put(): a blocked handler must notice dead workers
    // instead of waiting forever on a queue nobody drains.
    while (true) {
      if (workersAlive.get() == 0 || !running) {
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

  private void drain(int index, EntryWriter initial) {
    EntryWriter writer = initial;
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
        writer = writeOne(index, writer, e);
        if (dieAfterEntries > 0 && processed.get() >= dieAfterEntries) {
          LOG.warning(
              "audit worker exits after "
                  + dieAfterEntries
                  + " entries (--fault-worker-dies-after)");
          return;
        }
      }
    } finally {
      workersAlive.decrementAndGet();
      if (writer != null) {
        writer.close();
      }
    }
  }

  /** Writes one entry; returns the writer for the next (null when the connection was dropped). */
  private EntryWriter writeOne(int index, EntryWriter writer, AuditEntry e) {
    boolean fail = writeErrorProbability > 0 && faultRandom.nextDouble() < writeErrorProbability;
    long t0 = System.nanoTime();
    long contendedNanos = 0;
    try {
      if (writer == null) {
        writer = writerSource.open(index);
      }
      AuditWriter.LeaseTimes lease = writer.write(locks.chainFor(index, e.community()), e, fail);
      contendedNanos = lease.contendedNanos();
      metrics.leaseWaitSeconds.labelValues(e.community()).observe(lease.waitNanos() / 1e9);
      metrics.leaseHeldSeconds.labelValues(e.community()).observe(lease.heldNanos() / 1e9);
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
      long tookNanos = System.nanoTime() - t0;
      metrics.auditLogSeconds.observe(tookNanos / 1e9);
      // A worker blocked on a lease another writer holds is waiting, not working: the pool's busy
      // time leaves it out, so a binding lock does not read as busy workers.
      metrics.auditPoolBusySeconds.inc(
          Math.max(0, tookNanos - contendedNanos) / 1e9 / locks.workers());
      processed.incrementAndGet();
    }
    return writer;
  }

  /** Waits until the queue is empty and every worker idle, or the timeout passes. */
  boolean awaitDrained(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (System.nanoTime() < deadline) {
      if (workersAlive.get() == 0 || processed.get() == enqueued.get()) {
        return true;
      }
      Thread.sleep(5);
    }
    return false;
  }

  @Override
  public void close() {
    running = false;
    workers.forEach(Thread::interrupt);
    for (Thread t : workers) {
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
