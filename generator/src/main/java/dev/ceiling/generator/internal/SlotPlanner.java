package dev.ceiling.generator.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Which slots of one sender's connections are due, pass by pass. Pure: it reads no clock and no
 * response; the sender tells it "now" and the instant each batch went out. Each connection is a
 * {@link Lane} walking its own slots {@code first, first + stride, ...} in order; a pass hands
 * every lane with a slot due at or before "now" all of its due slots (up to {@link #MAX_BATCH}) in
 * slot order, so batching can group a connection's slots but never reorder them or move their due
 * times (property-tested, with a rebasing mutant).
 */
final class SlotPlanner {
  /** The most slots one lane hands over in one pass; the rest are due at once on the next pass. */
  static final int MAX_BATCH = 256;

  /** Where a slot's due time comes from. Production: the schedule, from the slot index alone. */
  interface DueRule {
    /**
     * The absolute due time of {@code lane}'s slot {@code j}; {@code previousSendNanos} is when the
     * lane's previous batch went out (0 before the first), which a correct rule never reads.
     */
    long dueNanos(Lane lane, long j, long previousSendNanos);
  }

  /** Due times from the schedule: {@code start + offset(j)}, never from a send or a response. */
  static final DueRule SCHEDULE = (lane, j, prev) -> lane.startNanos + lane.offsetNanos(j);

  /** Receives one lane's due slots; returns the send instant, or 0 when none of them went out. */
  interface Sink {
    long batch(Lane lane, long[] slots, long[] dues, int n);
  }

  /** One connection's walk through its slots. */
  abstract static class Lane {
    final long startNanos;
    final long stride;
    final long end;
    long j;
    long due;
    long lastSendNanos;

    /**
     * @param startNanos the clock start
     * @param first this connection's first slot (its index among the target's connections)
     * @param stride the target's connections: this connection's slots are {@code stride} apart
     * @param end the target's slot count (exclusive)
     */
    Lane(long startNanos, long first, long stride, long end) {
      this.startNanos = startNanos;
      this.j = first;
      this.stride = stride;
      this.end = end;
    }

    /** Nanoseconds from the clock start to slot {@code j}'s due time. */
    abstract long offsetNanos(long j);

    /** The next slot this lane has not handed over yet; {@code >= end} when it is done. */
    long next() {
      return j;
    }
  }

  private final PriorityQueue<Lane> queue;
  private final DueRule rule;
  private final List<Lane> due = new ArrayList<>();
  private final long[] slots = new long[MAX_BATCH];
  private final long[] dues = new long[MAX_BATCH];

  SlotPlanner(List<? extends Lane> lanes, DueRule rule) {
    this.rule = rule;
    this.queue =
        new PriorityQueue<>(Math.max(1, lanes.size()), (a, b) -> Long.compare(a.due, b.due));
    for (Lane l : lanes) {
      if (l.j < l.end) {
        l.due = rule.dueNanos(l, l.j, 0);
        queue.add(l);
      }
    }
  }

  /** The earliest due time of any slot not handed over yet, or {@link Long#MAX_VALUE}. */
  long nextDue() {
    Lane l = queue.peek();
    return l == null ? Long.MAX_VALUE : l.due;
  }

  boolean done() {
    return queue.isEmpty();
  }

  /**
   * One pass: every lane with a slot due at or before {@code nowNanos}, in due order, hands its due
   * slots to {@code sink} in slot order.
   */
  void takeDue(long nowNanos, Sink sink) {
    due.clear();
    while (!queue.isEmpty() && queue.peek().due <= nowNanos) {
      due.add(queue.poll());
    }
    for (Lane l : due) {
      int n = 0;
      while (n < MAX_BATCH && l.j < l.end && l.due <= nowNanos) {
        slots[n] = l.j;
        dues[n] = l.due;
        n++;
        l.j += l.stride;
        if (l.j < l.end) {
          l.due = rule.dueNanos(l, l.j, l.lastSendNanos);
        }
      }
      long sent = sink.batch(l, slots, dues, n);
      if (sent != 0) {
        l.lastSendNanos = sent;
        if (l.j < l.end) {
          l.due = rule.dueNanos(l, l.j, sent);
        }
      }
      if (l.j < l.end) {
        queue.add(l);
      }
    }
  }

  /** Hands every lane's remaining slots to {@code rest} (once each) and empties the planner. */
  void drain(java.util.function.Consumer<Lane> rest) {
    for (Lane l : queue) {
      rest.accept(l);
    }
    queue.clear();
  }
}
