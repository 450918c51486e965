package dev.ceiling.generator.internal;

import dev.ceiling.generator.StopRequest;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;

/**
 * One sender thread: owns a fixed set of connections and walks their slots in due-time order
 * ({@link SlotPlanner}). On each pass it hands every slot now due on a connection to Jetty as
 * batched frames, then flushes once: one socket write per connection per pass. It never looks at
 * responses except to honour the in-flight cap, and it never moves a due time: a late slot is sent
 * late and its lateness recorded.
 *
 * <p>State is confined to the thread until {@link Thread#join()}, after which the engine reads it.
 */
final class Sender implements Runnable {
  private static final long CAP_POLL_NANOS = 20_000;

  /** A lane of the planner bound to its connection. */
  static final class ConnLane extends SlotPlanner.Lane {
    final Conn conn;

    ConnLane(Conn conn, long startNanos) {
      super(startNanos, conn.index, conn.target.conns.length, conn.target.payloads.length);
      this.conn = conn;
    }

    @Override
    long offsetNanos(long j) {
      return conn.target.schedule.ownedDueOffsetNanos(j);
    }
  }

  private final List<Conn> conns;
  private final long startNanos;
  private final long sendDeadlineNanos;
  private final int inflightCap;
  private final RunStrategies strategies;
  private final AtomicLong sentTotal;
  private final StopRequest stop;
  private final SlotPlanner.Sink sink = this::sendBatch;
  private boolean stopped;
  private long prevEnd;

  /** Per target, indexed by TargetRun.index; read by the engine after join(). */
  final SendTally[] tallies;

  long busyNanos;
  long cpuNanos;

  /** Scheduler figures over the thread's run: {cpu, run-queue wait} ns, or null when unknown. */
  long[] schedNanos;

  /** Wall time from this thread's start to its end. */
  long runNanos;

  long lastSendNanos;
  long lastDueNanos;
  // This thread's first slot on the wire (warm-up included), 0 until then: the start's lateness.
  long firstSendNanos;
  long firstDueNanos;

  Sender(
      List<Conn> conns,
      int targets,
      long startNanos,
      long sendDeadlineNanos,
      int inflightCap,
      RunStrategies strategies,
      AtomicLong sentTotal,
      StopRequest stop) {
    this.conns = conns;
    this.startNanos = startNanos;
    this.sendDeadlineNanos = sendDeadlineNanos;
    this.inflightCap = inflightCap;
    this.strategies = strategies;
    this.sentTotal = sentTotal;
    this.stop = stop;
    this.tallies = new SendTally[targets];
    for (int i = 0; i < targets; i++) {
      tallies[i] = new SendTally();
    }
  }

  @Override
  public void run() {
    long t0 = System.nanoTime();
    long[] before = SchedStat.current();
    try {
      sendAll();
    } finally {
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      cpuNanos = mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : -1;
      long[] after = SchedStat.current();
      schedNanos =
          before == null || after == null
              ? null
              : new long[] {after[0] - before[0], after[1] - before[1]};
      runNanos = System.nanoTime() - t0;
    }
  }

  private void sendAll() {
    List<ConnLane> lanes = new ArrayList<>();
    for (Conn c : conns) {
      lanes.add(new ConnLane(c, startNanos));
    }
    SlotPlanner planner = new SlotPlanner(lanes, strategies.dueRule());
    prevEnd = startNanos;
    while (!planner.done() && !stopped) {
      if (stop.requested()) {
        // Slots already due go out (late, and recorded so); the rest never came due.
        long now = System.nanoTime();
        while (!stopped
            && !planner.done()
            && planner.nextDue() <= now
            && now <= sendDeadlineNanos) {
          planner.takeDue(now, sink);
        }
        planner.drain(stopped ? this::countLate : this::countNotDue);
        return;
      }
      PacedWait.until(planner.nextDue());
      long now = System.nanoTime();
      if (now > sendDeadlineNanos) {
        break;
      }
      planner.takeDue(now, sink);
    }
    planner.drain(this::countLate);
  }

  /**
   * Sends one connection's due slots: batched frames and one flush, in slices that respect the
   * in-flight cap. The send instant of every slot in a slice is one {@code nanoTime()} taken right
   * before the slice's frames are handed to Jetty; a slot whose instant would be past the send
   * deadline is counted unsent-late and never handed over.
   */
  private long sendBatch(SlotPlanner.Lane lane, long[] slots, long[] dues, int n) {
    Conn conn = ((ConnLane) lane).conn;
    TargetRun t = conn.target;
    SendTally tally = tallies[t.index];
    lastDueNanos = Math.max(lastDueNanos, dues[n - 1]);
    long workStart = Math.max(dues[0], prevEnd);
    long capWait = 0;
    long sendAt = 0;
    int i = 0;
    while (i < n) {
      if (conn.dead || conn.core == null) {
        tally.unsentDead += measured(t, slots, i, n);
        break;
      }
      int room = inflightCap - conn.inflight.get();
      if (room <= 0) {
        if (slots[i] >= t.firstMeasured) {
          tally.capDelayed++;
        }
        long capStart = System.nanoTime();
        boolean late = waitForRoom(conn);
        capWait += System.nanoTime() - capStart;
        if (late) {
          tally.unsentLate += measured(t, slots, i, n);
          stopped = true;
          break;
        }
        continue;
      }
      int k = Math.min(n - i, room);
      long at = strategies.sendClock().sendInstantNanos(conn, k);
      if (at > sendDeadlineNanos) {
        tally.unsentLate += measured(t, slots, i, n);
        stopped = true;
        break;
      }
      handOff(conn, t, tally, slots, dues, i, i + k, at);
      sendAt = at;
      i += k;
    }
    long end = System.nanoTime();
    busyNanos += Math.max(0, end - workStart - capWait);
    prevEnd = end;
    return sendAt;
  }

  /** Waits while the connection is at its in-flight cap; true when the send deadline passed. */
  private boolean waitForRoom(Conn conn) {
    while (conn.inflight.get() >= inflightCap && !conn.dead) {
      if (System.nanoTime() > sendDeadlineNanos) {
        return true;
      }
      LockSupport.parkNanos(CAP_POLL_NANOS);
    }
    return false;
  }

  /** Records slots [from, to) as sent at {@code at}, then hands their frames over and flushes. */
  private void handOff(
      Conn conn,
      TargetRun t,
      SendTally tally,
      long[] slots,
      long[] dues,
      int from,
      int to,
      long at) {
    // Recorded before the hand-off: an OK can arrive before sendFrame returns.
    for (int m = from; m < to; m++) {
      int j = (int) slots[m];
      t.sentAtNanos.set(j, at);
      conn.inflight.incrementAndGet();
      if (j >= t.firstMeasured) {
        tally.sendLagUs.recordValue(TargetRun.us(at - dues[m]));
        tally.sent++;
      }
    }
    try {
      for (int m = from; m < to; m++) {
        // A new Frame per send, over the old bytes: Jetty stores a fresh mask into the frame it
        // sends, and into a frame built before the clock (long tenured) that store is an
        // old-to-young reference every young collection must scan and copy (pauses of 10-25 ms
        // at 20,000/s, 1 Dec 2026). A young Frame dies young with its mask.
        Frame f = new Frame(OpCode.TEXT, true, ByteBuffer.wrap(t.payloads[(int) slots[m]]));
        conn.core.sendFrame(f, conn.frameCallback, true);
      }
      conn.core.flush(conn.frameCallback);
    } catch (RuntimeException e) {
      // Jetty reports most failures through the callback; a synchronous throw is the same class
      // of error, and the slots stay counted as sent (they may have reached the wire).
      t.onTransportError("write", conn.describe() + ": " + e);
    }
    sentTotal.addAndGet(to - from);
    if (firstSendNanos == 0) {
      firstSendNanos = at;
      firstDueNanos = dues[from];
    }
    lastSendNanos = at;
  }

  /** Measured (non-warm-up) slots among slots[from, to). */
  private static long measured(TargetRun t, long[] slots, int from, int to) {
    long c = 0;
    for (int m = from; m < to; m++) {
      if (slots[m] >= t.firstMeasured) {
        c++;
      }
    }
    return c;
  }

  /** A stopped run's remaining measured slots of {@code lane}: never due, so not planned. */
  private void countNotDue(SlotPlanner.Lane lane) {
    TargetRun t = ((ConnLane) lane).conn.target;
    long stride = lane.stride;
    long from = lane.next();
    if (from < t.firstMeasured) {
      from += (t.firstMeasured - from + stride - 1) / stride * stride;
    }
    if (from < lane.end) {
      tallies[t.index].notDue += (lane.end - 1 - from) / stride + 1;
    }
  }

  /** Counts a lane's slots never handed over as unsent-late (warm-up slots are not counted). */
  private void countLate(SlotPlanner.Lane lane) {
    TargetRun t = ((ConnLane) lane).conn.target;
    long stride = lane.stride;
    long from = lane.next();
    if (from < t.firstMeasured) {
      from += (t.firstMeasured - from + stride - 1) / stride * stride;
    }
    if (from < lane.end) {
      long n = (lane.end - 1 - from) / stride + 1;
      tallies[t.index].unsentLate += n;
      long lastJ = from + (n - 1) * stride;
      lastDueNanos = Math.max(lastDueNanos, startNanos + lane.offsetNanos(lastJ));
    }
  }
}
