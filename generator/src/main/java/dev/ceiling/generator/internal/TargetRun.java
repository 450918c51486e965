package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.nostr.Keys;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.websocket.core.Frame;

/**
 * One target during a run: its schedule, its pre-signed frames, per-slot send instants, and the
 * counts that OKs, NOTICEs and transport errors add to. Receive-side state is guarded by {@code
 * this}; send instants are an atomic array so an OK on a Jetty thread sees the sender's write.
 */
public final class TargetRun {
  final int index;
  final TargetLoad load;
  final Schedule schedule;
  final Keys[] keys;

  /**
   * Every owned slot's EVENT text, encoded as UTF-8 before the clock. Each is sent once, in a
   * {@link Frame} made at the send (see {@link Sender}); Jetty masks it into its batch buffer with
   * a fresh key.
   */
  final byte[][] payloads;

  final Map<String, Integer> slotById;
  final AtomicLongArray sentAtNanos;
  final Conn[] conns;

  /** Slots before this one are warm-up: sent on schedule, never counted. */
  final int firstMeasured;

  // Guarded by this.
  /** Slots answered so far; guarded by this. */
  final BitSet answered;

  private long windowStartNanos = Long.MAX_VALUE;
  private long windowMidNanos = Long.MAX_VALUE;
  private long windowEndNanos = Long.MAX_VALUE;
  long acceptedInWindow;
  private long acceptedInWindowFirstHalf;
  private long acceptedInWindowOwnSlots;
  // OK-false answers that arrived in the window, and in its first half (by arrival, any slot).
  private long rejectedInWindow;
  private long rejectedInWindowFirstHalf;
  // Answers to slots this run sent (any slot, OK true or false) that arrived before each instant:
  // with the slots sent before it, they give the outstanding count there.
  private long answeredBeforeStart;
  private long answeredBeforeMid;
  private long answeredBeforeEnd;

  /**
   * When the relay last answered inside the window, in System.nanoTime() terms: an OK (true or
   * false) to a slot of this target, or a NOTICE; Long.MIN_VALUE when nothing has come. A NOTICE
   * counts because the silence measures whether the relay is alive, not whether it accepts: a
   * limiter that refuses every event with a NOTICE (the reference relay's at its stock limits) is
   * answering, and must not read as a stalled relay. Guarded by this.
   */
  private long lastAnswerInWindowNanos = Long.MIN_VALUE;

  private long ownAnsweredBeforeEnd;
  private boolean frozen;
  private long okFrames;
  long accepted;
  long rejected;
  final Map<String, Long> rejectedByPrefix = new TreeMap<>();
  String firstRejection;
  long notices;
  String firstNotice;
  long unknownOkIds;
  long duplicateOks;
  long authChallenges;
  final Map<String, Long> transportErrors = new TreeMap<>();
  String firstTransportError;
  final Histogram serviceUs = LatencySummary.newHistogram();
  final Histogram scheduledUs = LatencySummary.newHistogram();

  TargetRun(
      int index,
      TargetLoad load,
      Schedule schedule,
      Keys[] keys,
      byte[][] payloads,
      Map<String, Integer> slotById,
      int firstMeasured) {
    this.index = index;
    this.firstMeasured = firstMeasured;
    this.load = load;
    this.schedule = schedule;
    this.keys = keys;
    this.payloads = payloads;
    this.slotById = slotById;
    this.sentAtNanos = new AtomicLongArray(payloads.length);
    this.answered = new BitSet(payloads.length);
    this.conns = new Conn[load.connections()];
  }

  public TargetLoad load() {
    return load;
  }

  /** Records an OK; {@code startNanos} is the clock start. */
  void onOk(
      Conn conn,
      String id,
      boolean ok,
      String message,
      long nowNanos,
      long startNanos,
      RunStrategies strategies) {
    synchronized (this) {
      if (frozen) {
        return;
      }
      okFrames++;
      Integer j = strategies.okMatcher().slotOf(this, id);
      if (j == null) {
        if (!conn.authIds.remove(id) && counts(nowNanos)) {
          unknownOkIds++;
        }
        return;
      }
      long sentAt = sentAtNanos.get(j);
      if (sentAt == 0) {
        // Our id, but we never sent it: the relay cannot know it, so treat it as unknown.
        unknownOkIds++;
        return;
      }
      if (answered.get(j)) {
        duplicateOks++;
        return;
      }
      answered.set(j);
      conns[schedule.connectionOf(j)].inflight.decrementAndGet();
      countAnsweredBefore(j, nowNanos);
      // Throughput counts answers by when they arrive, whichever slot they answer.
      if (ok && nowNanos >= windowStartNanos && nowNanos < windowEndNanos) {
        acceptedInWindow++;
        if (nowNanos < windowMidNanos) {
          acceptedInWindowFirstHalf++;
        }
        if (j >= firstMeasured) {
          acceptedInWindowOwnSlots++;
        }
      } else if (!ok && nowNanos >= windowStartNanos && nowNanos < windowEndNanos) {
        rejectedInWindow++;
        if (nowNanos < windowMidNanos) {
          rejectedInWindowFirstHalf++;
        }
      }
      if (j < firstMeasured) {
        return;
      }
      if (ok) {
        accepted++;
      } else {
        rejected++;
        rejectedByPrefix.merge(prefix(message), 1L, Long::sum);
        if (firstRejection == null) {
          firstRejection = message;
        }
      }
      long due = startNanos + schedule.ownedDueOffsetNanos(j);
      serviceUs.recordValue(us(nowNanos - sentAt));
      scheduledUs.recordValue(us(nowNanos - strategies.scheduledOrigin().originNanos(due, sentAt)));
    }
  }

  private void countAnsweredBefore(int j, long nowNanos) {
    if (nowNanos < windowStartNanos) {
      answeredBeforeStart++;
    }
    if (nowNanos < windowMidNanos) {
      answeredBeforeMid++;
    }
    if (nowNanos < windowEndNanos) {
      answeredBeforeEnd++;
      if (nowNanos >= windowStartNanos) {
        lastAnswerInWindowNanos = nowNanos;
      }
      if (j >= firstMeasured) {
        ownAnsweredBeforeEnd++;
      }
    }
  }

  /** Fixes the measurement window, in System.nanoTime() terms, before the clock starts. */
  synchronized void setWindow(long startNanos, long endNanos) {
    this.windowStartNanos = startNanos;
    this.windowMidNanos = startNanos + (endNanos - startNanos) / 2;
    this.windowEndNanos = endNanos;
  }

  synchronized void onNotice(String text) {
    long nowNanos = System.nanoTime();
    if (frozen || !counts(nowNanos)) {
      return;
    }
    notices++;
    if (firstNotice == null) {
      firstNotice = text;
    }
    if (nowNanos < windowEndNanos) {
      lastAnswerInWindowNanos = Math.max(lastAnswerInWindowNanos, nowNanos);
    }
  }

  synchronized void onAuthChallenge() {
    authChallenges++;
  }

  synchronized void onTransportError(String kind, String description) {
    if (frozen || !counts(System.nanoTime())) {
      return;
    }
    transportErrors.merge(kind, 1L, Long::sum);
    if (firstTransportError == null) {
      firstTransportError = kind + ": " + description;
    }
  }

  /**
   * Whether a NOTICE, a transport error or an OK for an unknown id arriving at {@code nowNanos} is
   * counted: from the window's start on (the warm-up's are not). Decided by the arrival's own time,
   * not by a flag the engine's thread sets once it wakes at the window's start: that thread, woken
   * late, let the window's first answers go uncounted (an unknown-id OK answered within a
   * millisecond of the first slot was missed once in a run with no warm-up).
   */
  private boolean counts(long nowNanos) {
    return nowNanos >= windowStartNanos;
  }

  /** Stops counting: anything arriving after the grace period is ignored. */
  synchronized void freeze() {
    frozen = true;
  }

  /** Slots of the measured window this process owns (the warm-up's are not counted). */
  long slotsPlanned() {
    return (long) payloads.length - firstMeasured;
  }

  /**
   * This target's result: the receive-side counts of the measured slots with the senders' {@code
   * sends} folded in, the rates built from them, and the latencies.
   */
  synchronized GeneratorReport.Result result(
      SendTally sends, double offeredPerS, double durationS, String generatorBoundReason) {
    return new GeneratorReport.Result(
        offeredPerS,
        slotsPlanned() - sends.notDue,
        sends.sent,
        sends.unsentLate,
        sends.unsentDead,
        sends.capDelayed,
        sends.sent,
        accepted,
        rejected,
        rejectedByPrefix,
        firstRejection,
        notices,
        firstNotice,
        sends.sent - accepted - rejected,
        unknownOkIds,
        duplicateOks,
        authChallenges,
        transportErrors,
        firstTransportError,
        acceptedInWindow,
        warmupSlotsSent(),
        acceptedInWindowFirstHalf,
        acceptedInWindow - acceptedInWindowFirstHalf,
        acceptedInWindowOwnSlots,
        sentBefore(windowEndNanos, firstMeasured) - ownAnsweredBeforeEnd,
        sentBefore(windowStartNanos, 0) - answeredBeforeStart,
        sentBefore(windowMidNanos, 0) - answeredBeforeMid,
        sentBefore(windowEndNanos, 0) - answeredBeforeEnd,
        silenceAtWindowEndS(),
        rejectedInWindowFirstHalf,
        rejectedInWindow - rejectedInWindowFirstHalf,
        acceptedInWindow / durationS,
        acceptedInWindow / (offeredPerS * durationS),
        LatencySummary.of(sends.sendLagUs),
        LatencySummary.of(serviceUs),
        LatencySummary.of(scheduledUs),
        generatorBoundReason != null,
        generatorBoundReason);
  }

  /**
   * Seconds from the last answer (an OK or a NOTICE) inside the window (or from the window's start,
   * when none came) to the window's end, or to now when the run stopped before the window ended (a
   * signal). Never negative; 0 before the window started.
   */
  private double silenceAtWindowEndS() {
    long end = Math.min(windowEndNanos, System.nanoTime());
    long from = Math.max(lastAnswerInWindowNanos, windowStartNanos);
    return Math.max(0, end - from) / 1e9;
  }

  /** Warm-up slots put on the wire: their answers may arrive inside the window. */
  private long warmupSlotsSent() {
    long n = 0;
    for (int j = 0; j < firstMeasured; j++) {
      if (sentAtNanos.get(j) != 0) {
        n++;
      }
    }
    return n;
  }

  /**
   * Slots from {@code from} on put on the wire before {@code nanos}. A slot's send instant is
   * recorded before its frame is handed over, so every answer counted before an instant answers a
   * slot counted here, and the outstanding count (sent minus answered) is never negative.
   */
  private long sentBefore(long nanos, int from) {
    long n = 0;
    for (int j = from; j < payloads.length; j++) {
      long at = sentAtNanos.get(j);
      if (at != 0 && at < nanos) {
        n++;
      }
    }
    return n;
  }

  /** OK frames received before the freeze, whatever they answered (warm-up, unknown, duplicate). */
  synchronized long okFrames() {
    return okFrames;
  }

  synchronized long answeredCount() {
    return answered.cardinality();
  }

  /** The NIP-01 machine-readable prefix of an OK message ("rate-limited", ...), or "none". */
  static String prefix(String message) {
    if (message == null) {
      return "none";
    }
    int colon = message.indexOf(':');
    if (colon <= 0) {
      return "none";
    }
    String p = message.substring(0, colon);
    return p.matches("[a-z][a-z0-9-]{0,31}") ? p : "none";
  }

  static long us(long nanos) {
    long v = Math.max(0, nanos / 1000);
    return Math.min(v, LatencySummary.HIGHEST_TRACKABLE_US);
  }
}
