package dev.ceiling.generator.internal;

import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One sender thread: owns a fixed set of connections and walks their slots in due-time order,
 * sleeping until each slot's absolute due time. It never looks at responses except to honour the
 * in-flight cap, and it never moves a due time: a late slot is sent late and its lateness recorded.
 *
 * <p>State is confined to the thread until {@link Thread#join()}, after which the engine reads it.
 */
final class Sender implements Runnable {
  /**
   * Park until this close to the due time, then spin. Small on purpose: parkNanos overshoots by
   * ~50-100 µs, which is far inside the 1 ms lag bound, while a long spin on a 2-core box steals
   * the CPU that Jetty's I/O threads need to put frames on the wire and read OKs.
   */
  static final long SPIN_NANOS = 5_000;

  private static final long CAP_POLL_NANOS = 20_000;

  private final List<Conn> conns;
  private final long startNanos;
  private final long sendDeadlineNanos;
  private final int inflightCap;
  private final Hooks hooks;
  private final java.util.concurrent.atomic.AtomicLong sentTotal;

  /** Per target, indexed by TargetRun.index; read by the engine after join(). */
  final SendTally[] tallies;

  long busyNanos;
  long cpuNanos;
  long lastSendNanos;
  long lastDueNanos;

  private static final class Cursor {
    final Conn conn;
    long j;
    long due;

    Cursor(Conn conn) {
      this.conn = conn;
      this.j = conn.index;
    }
  }

  Sender(
      List<Conn> conns,
      int targets,
      long startNanos,
      long sendDeadlineNanos,
      int inflightCap,
      Hooks hooks,
      java.util.concurrent.atomic.AtomicLong sentTotal) {
    this.conns = conns;
    this.startNanos = startNanos;
    this.sendDeadlineNanos = sendDeadlineNanos;
    this.inflightCap = inflightCap;
    this.hooks = hooks;
    this.sentTotal = sentTotal;
    this.tallies = new SendTally[targets];
    for (int i = 0; i < targets; i++) {
      tallies[i] = new SendTally();
    }
  }

  @Override
  public void run() {
    try {
      sendAll();
    } finally {
      java.lang.management.ThreadMXBean mx =
          java.lang.management.ManagementFactory.getThreadMXBean();
      cpuNanos = mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : -1;
    }
  }

  private void sendAll() {
    PriorityQueue<Cursor> queue =
        new PriorityQueue<>(Math.max(1, conns.size()), (a, b) -> Long.compare(a.due, b.due));
    for (Conn c : conns) {
      Cursor cur = new Cursor(c);
      if (cur.j < c.target.frames.length) {
        cur.due = startNanos + c.target.schedule.ownedDueOffsetNanos(cur.j);
        queue.add(cur);
      }
    }
    long prevEnd = startNanos;
    while (!queue.isEmpty()) {
      Cursor cur = queue.poll();
      TargetRun t = cur.conn.target;
      int ti = t.index;
      long due = cur.due;
      lastDueNanos = Math.max(lastDueNanos, due);
      waitUntil(due);
      long now = System.nanoTime();
      if (now > sendDeadlineNanos) {
        countRemaining(cur, queue);
        return;
      }
      long workStart = Math.max(due, prevEnd);
      Conn conn = cur.conn;
      boolean measured = cur.j >= t.firstMeasured;
      if (conn.dead || conn.session == null) {
        if (measured) {
          tallies[ti].unsentDead++;
        }
      } else {
        long capWait = 0;
        if (conn.inflight.get() >= inflightCap) {
          if (measured) {
            tallies[ti].capDelayed++;
          }
          long capStart = System.nanoTime();
          while (conn.inflight.get() >= inflightCap && !conn.dead) {
            if (System.nanoTime() > sendDeadlineNanos) {
              countRemaining(cur, queue);
              return;
            }
            LockSupport.parkNanos(CAP_POLL_NANOS);
          }
          capWait = System.nanoTime() - capStart;
        }
        if (conn.dead) {
          if (measured) {
            tallies[ti].unsentDead++;
          }
        } else {
          hooks.beforeSend(conn);
          int j = (int) cur.j;
          long sendAt = System.nanoTime();
          t.sentAtNanos.set(j, sendAt);
          conn.inflight.incrementAndGet();
          try {
            conn.session.sendText(t.frames[j], conn.writeCallback);
          } catch (RuntimeException e) {
            // Jetty reports most failures through the callback; a synchronous throw is the same
            // class of error, and the slot stays counted as sent (it may have reached the wire).
            t.onTransportError("write", conn.describe() + ": " + e);
          }
          if (measured) {
            tallies[ti].sendLagUs.recordValue(TargetRun.us(sendAt - due));
            tallies[ti].sent++;
          }
          sentTotal.incrementAndGet();
          lastSendNanos = sendAt;
          long end = System.nanoTime();
          busyNanos += Math.max(0, end - workStart - capWait);
          prevEnd = end;
        }
      }
      cur.j += t.conns.length;
      if (cur.j < t.frames.length) {
        cur.due = startNanos + t.schedule.ownedDueOffsetNanos(cur.j);
        queue.add(cur);
      }
    }
  }

  private void countRemaining(Cursor cur, PriorityQueue<Cursor> queue) {
    countFrom(cur);
    for (Cursor c : queue) {
      countFrom(c);
    }
    queue.clear();
  }

  private void countFrom(Cursor c) {
    TargetRun t = c.conn.target;
    int stride = t.conns.length;
    long from = c.j;
    if (from < t.firstMeasured) {
      // Warm-up slots left unsent are not counted; skip to this cursor's first measured slot.
      from += (t.firstMeasured - from + stride - 1) / stride * stride;
    }
    if (from < t.frames.length) {
      long n = (t.frames.length - 1 - from) / stride + 1;
      tallies[t.index].unsentLate += n;
      long lastJ = from + (n - 1) * stride;
      lastDueNanos = Math.max(lastDueNanos, startNanos + t.schedule.ownedDueOffsetNanos(lastJ));
    }
  }

  /** Sleeps until the absolute instant {@code due}: park most of the way, spin the rest. */
  static void waitUntil(long due) {
    while (true) {
      long left = due - System.nanoTime();
      if (left <= 0) {
        return;
      }
      if (left > SPIN_NANOS) {
        LockSupport.parkNanos(left - SPIN_NANOS);
      } else {
        Thread.onSpinWait();
      }
    }
  }
}
