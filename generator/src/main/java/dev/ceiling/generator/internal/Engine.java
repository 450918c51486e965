package dev.ceiling.generator.internal;

import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.ProgressListener;
import dev.ceiling.generator.StartGate;
import dev.ceiling.generator.StartInstant;
import dev.ceiling.generator.StopRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one generator configuration: pre-sign ({@link Presigner}), connect everything ({@link
 * Connector}), start one clock, send on schedule from a few {@link Sender} threads, wait out the
 * grace period, report ({@link ReportBuilder}).
 */
public final class Engine {
  /** Lead time between "everything connected" and slot 0, so sender threads are parked in time. */
  static final Duration CLOCK_LEAD = Duration.ofMillis(100);

  private Engine() {}

  /**
   * The late-send slack: a slot not sent by clock start + duration + this is not sent at all.
   * max(100 ms, 10% of the duration): long enough that a brief hiccup at the end does not drop the
   * last slots, short enough that a stalled generator ends.
   */
  public static Duration lateSendSlack(Duration duration) {
    return Duration.ofNanos(Math.max(100_000_000L, duration.toNanos() / 10));
  }

  public static GeneratorReport run(
      GeneratorConfig cfg, ProgressListener progress, RunStrategies strategies)
      throws GeneratorException {
    return run(cfg, progress, strategies, new StopRequest());
  }

  /** Runs {@code cfg} until it completes or {@code stop} is requested (see {@link StopRequest}). */
  public static GeneratorReport run(
      GeneratorConfig cfg, ProgressListener progress, RunStrategies strategies, StopRequest stop)
      throws GeneratorException {
    return run(cfg, progress, strategies, stop, null);
  }

  /**
   * As above; with a {@code gate} (and no start instant in {@code cfg}), the start instant is the
   * one the gate gives once everything is pre-signed, connected and warm.
   */
  public static GeneratorReport run(
      GeneratorConfig cfg,
      ProgressListener progress,
      RunStrategies strategies,
      StopRequest stop,
      StartGate gate)
      throws GeneratorException {
    if (gate != null && cfg.startAt() != null) {
      throw new IllegalArgumentException(
          "a start gate and a fixed start instant (" + cfg.startAt() + ") exclude each other");
    }
    // The schedule covers warm-up and measured window alike: one rate, never a gap or a burst.
    long durationNanos = cfg.warmup().toNanos() + cfg.duration().toNanos();
    if (cfg.startAt() != null && !Instant.now().isBefore(cfg.startAt())) {
      throw new GeneratorException(
          GeneratorException.Kind.STARTED_LATE,
          "start at "
              + cfg.startAt()
              + " has already passed (now "
              + Instant.now()
              + "); refusing to start late, which would shift this segment against the others");
    }
    RunClock clock = new RunClock(strategies);
    List<TargetRun> targets = Presigner.presign(cfg, durationNanos, progress);
    List<Conn> all = new ArrayList<>();
    // Connections idle while the gate waits: their idle timeout allows for the longest wait.
    WsClients clients =
        WsClients.start(
            cfg, gate == null ? ClockStart.untilStart(cfg.startAt()) : gate.longestWait());
    try {
      for (TargetRun t : targets) {
        for (int c = 0; c < t.conns.length; c++) {
          t.conns[c] = new Conn(t, c, clock);
          all.add(t.conns[c]);
        }
      }
      Connector.connectAll(clients, all, cfg.connectTimeout(), progress);
      Connector.warmUp(all);
      settleHeap();
      // A gate's instant is chosen now, after everything above; from here on it is a fixed start
      // instant, which the wake floor probe, the clock and the report treat as any other.
      GeneratorConfig fixed = gate == null ? cfg : cfg.withStartAt(gate.awaitStart());
      Long wakeFloorP99Us = wakeFloor(fixed, strategies, progress);
      return sendAndReport(fixed, targets, all, clock, progress, wakeFloorP99Us, stop);
    } finally {
      Connector.closeAll(clients, all, progress);
    }
  }

  /**
   * A full collection before the clock, so everything built for the run (every slot's frame, the
   * per-slot arrays: hundreds of MB at high rates) is in the old generation when the first slot is
   * due. Without it each young collection on the clock copies that data again between survivor
   * spaces until it ages out: at 20,000 events/s those pauses were 17-46 ms (G1 log, 1 Dec 2026),
   * and every slot due during a pause is sent that late. {@code -XX:+DisableExplicitGC} turns it
   * off.
   */
  // The explicit collection is the point: see above.
  @SuppressWarnings("DoNotCall")
  static void settleHeap() {
    System.gc();
  }

  /**
   * Measures the machine's wake floor for the configured probe (less when a shared start instant
   * leaves less: being ready at the instant matters more than a full second of it) after everything
   * else is ready, so no pre-signing or connecting competes with the probe, and prints it with the
   * bound it sets. Null when there was no time for it.
   */
  private static Long wakeFloor(
      GeneratorConfig cfg, RunStrategies strategies, ProgressListener progress) {
    Duration probe = cfg.wakeFloorProbe();
    if (cfg.startAt() != null) {
      // Half the slack at most: a loaded machine's last waits can overshoot, and missing the
      // instant costs the cell, while a shorter probe only costs precision.
      Duration slack =
          Duration.between(Instant.now(), cfg.startAt()).minus(StartInstant.MIN_LEAD).dividedBy(2);
      probe = slack.compareTo(probe) < 0 ? (slack.isNegative() ? Duration.ZERO : slack) : probe;
    }
    Long floorUs = strategies.wakeFloor().p99Us(probe);
    progress.progress(
        SelfCheck.boundLine(
            cfg.sendLagBound().toNanos() / 1000,
            floorUs,
            SelfCheck.lagBoundUs(
                cfg.sendLagBound().toNanos() / 1000,
                floorUs,
                1e9 * cfg.segment().count() / cfg.loads().get(0).ratePerS())));
    return floorUs;
  }

  private static GeneratorReport sendAndReport(
      GeneratorConfig cfg,
      List<TargetRun> targets,
      List<Conn> all,
      RunClock clock,
      ProgressListener progress,
      Long wakeFloorP99Us,
      StopRequest stop)
      throws GeneratorException {
    int threads = Math.min(cfg.senderThreads(), all.size());
    List<List<Conn>> owned = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      owned.add(new ArrayList<>());
    }
    for (int i = 0; i < all.size(); i++) {
      owned.get(i % threads).add(all.get(i));
    }
    long startNanos;
    Instant clockStart;
    if (cfg.startAt() == null) {
      startNanos = System.nanoTime() + CLOCK_LEAD.toNanos();
      clockStart = Instant.now().plus(CLOCK_LEAD);
    } else {
      // The wall clock is read once, here; the monotonic clock paces every slot after it.
      startNanos = ClockStart.startNanos(cfg.startAt(), StartInstant.MIN_LEAD);
      clockStart = cfg.startAt();
    }
    clock.start(startNanos);
    long warmupNanos = cfg.warmup().toNanos();
    long windowStartNanos = startNanos + warmupNanos;
    Instant windowStart = clockStart.plusNanos(warmupNanos);
    long durationNanos = cfg.duration().toNanos();
    long sendDeadline = windowStartNanos + durationNanos + lateSendSlack(cfg.duration()).toNanos();
    AtomicLong sentTotal = new AtomicLong();
    List<Sender> senders = new ArrayList<>();
    List<Thread> threadList = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Sender s =
          new Sender(
              owned.get(i),
              targets.size(),
              startNanos,
              sendDeadline,
              cfg.inflightCapPerConnection(),
              clock.strategies(),
              sentTotal,
              stop);
      senders.add(s);
      Thread th = new Thread(s, "ceiling-sender-" + i);
      th.setDaemon(true);
      threadList.add(th);
    }
    long windowEndNanos = windowStartNanos + durationNanos;
    for (TargetRun t : targets) {
      t.setWindow(windowStartNanos, windowEndNanos);
    }
    progress.progress("clock starts at " + clockStart + ": " + cfg.describe());
    threadList.forEach(Thread::start);
    Thread window =
        windowThread(
            cfg,
            windowStart,
            windowStartNanos,
            windowStart.plusNanos(durationNanos),
            windowEndNanos,
            stop);
    window.start();
    try {
      for (Thread th : threadList) {
        while (th.isAlive()) {
          th.join(1000);
          if (th.isAlive()) {
            progress.progress(
                String.format(
                    Locale.ROOT,
                    "t=%.1fs sent=%d answered=%d",
                    (System.nanoTime() - startNanos) / 1e9,
                    sentTotal.get(),
                    answered(targets)));
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE, "interrupted while sending", e);
    }
    long lastSend = 0;
    long unsentLateTotal = 0;
    for (Sender s : senders) {
      lastSend = Math.max(lastSend, s.lastSendNanos);
      for (SendTally t : s.tallies) {
        unsentLateTotal += t.unsentLate;
      }
    }
    long endOfSends = unsentLateTotal > 0 ? sendDeadline : (lastSend == 0 ? startNanos : lastSend);
    long graceStart = System.nanoTime();
    long graceEnd = Math.max(graceStart, endOfSends + cfg.gracePeriod().toNanos());
    long sent = sentTotal.get();
    while (!clock.strategies().graceRule().over(answered(targets), sent, targets)
        && System.nanoTime() < graceEnd) {
      LockSupport.parkNanos(2_000_000);
    }
    for (TargetRun t : targets) {
      t.freeze();
    }
    try {
      // The window closes on schedule even when sends ended early (dead connections).
      window.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE, "interrupted while waiting for the window", e);
    }
    double graceWaitedS = (System.nanoTime() - graceStart) / 1e9;
    String incomplete =
        incomplete(stop, senders, endOfSends, startNanos, durationNanos + warmupNanos);
    progress.progress(
        String.format(
            Locale.ROOT,
            "done: sent=%d answered=%d grace waited %.3f s%s",
            sent,
            answered(targets),
            graceWaitedS,
            incomplete == null ? "" : "; INCOMPLETE: " + incomplete));
    return ReportBuilder.build(
        cfg,
        targets,
        senders,
        new ReportBuilder.Timing(
            windowStart, startNanos, windowStartNanos, endOfSends, graceWaitedS, wakeFloorP99Us),
        incomplete);
  }

  /**
   * Why the report is incomplete and how much of the schedule it covers, or null when the run was
   * not stopped or the stop came after every slot was due (nothing was left out).
   */
  private static String incomplete(
      StopRequest stop,
      List<Sender> senders,
      long endOfSends,
      long startNanos,
      long scheduleNanos) {
    if (stop.reason().isEmpty()) {
      return null;
    }
    long notDue = 0;
    for (Sender s : senders) {
      for (SendTally t : s.tallies) {
        notDue += t.notDue;
      }
    }
    if (notDue == 0) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "stopped by %s after %.1f s of the %.1f s schedule; %d measured slots never came due and"
            + " are left out of every count",
        stop.reason().get(),
        Math.max(0, endOfSends - startNanos) / 1e9,
        scheduleNanos / 1e9,
        notDue);
  }

  /**
   * Calls the window listener when the measurement window opens and when it closes (start + warm-up
   * + duration), from a thread that sends nothing, so a slow callback (a metrics scrape) never
   * delays a slot and the two calls bracket exactly the window the throughput is counted in.
   */
  private static Thread windowThread(
      GeneratorConfig cfg,
      Instant start,
      long startNanos,
      Instant end,
      long endNanos,
      StopRequest stop) {
    Thread th =
        new Thread(
            () -> {
              // A stopped run's window ends when it stopped, so the report is not held back.
              untilOrStop(startNanos, stop);
              cfg.windowListener().windowStarted(start);
              untilOrStop(endNanos, stop);
              long early = Math.max(0, endNanos - System.nanoTime());
              cfg.windowListener().windowEnded(early == 0 ? end : end.minusNanos(early));
            },
            "ceiling-window");
    th.setDaemon(true);
    return th;
  }

  /**
   * Waits until {@code due} as {@link PacedWait#until} does, or less once {@code stop} is requested
   * (checked every 50 ms until the last 50 ms, which are waited whole for the same precision).
   */
  private static void untilOrStop(long due, StopRequest stop) {
    long chunk = 50_000_000L;
    while (!stop.requested()) {
      long left = due - System.nanoTime();
      if (left <= chunk) {
        PacedWait.until(due);
        return;
      }
      LockSupport.parkNanos(Math.min(left - chunk, chunk));
    }
  }

  private static long answered(List<TargetRun> targets) {
    long n = 0;
    for (TargetRun t : targets) {
      n += t.answeredCount();
    }
    return n;
  }
}
