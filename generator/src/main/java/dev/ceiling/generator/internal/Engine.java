package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.core.nostr.EventSigner;
import dev.ceiling.core.nostr.Keys;
import dev.ceiling.core.nostr.NostrEvent;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.ProgressListener;
import dev.ceiling.generator.StartInstant;
import dev.ceiling.generator.TargetLoad;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * Runs one generator configuration: pre-sign, connect everything, start one clock, send on schedule
 * from a few sender threads, wait out the grace period, report.
 */
public final class Engine {
  /** Lead time between "everything connected" and slot 0, so sender threads are parked in time. */
  static final Duration CLOCK_LEAD = Duration.ofMillis(100);

  /** Shared between the engine and the receive side: the clock start, once it is fixed. */
  public static final class RunClock {
    private volatile long startNanos;
    private final Hooks hooks;

    RunClock(Hooks hooks) {
      this.hooks = hooks;
    }

    long startNanos() {
      return startNanos;
    }

    Hooks hooks() {
      return hooks;
    }
  }

  private Engine() {}

  /**
   * The late-send slack: a slot not sent by clock start + duration + this is not sent at all.
   * max(100 ms, 10% of the duration): long enough that a brief hiccup at the end does not drop the
   * last slots, short enough that a stalled generator ends.
   */
  public static Duration lateSendSlack(Duration duration) {
    return Duration.ofNanos(Math.max(100_000_000L, duration.toNanos() / 10));
  }

  public static GeneratorReport run(GeneratorConfig cfg, ProgressListener progress, Hooks hooks)
      throws GeneratorException {
    // The schedule covers warm-up and measured window alike: one rate, never a gap or a burst.
    long durationNanos = cfg.warmup().toNanos() + cfg.duration().toNanos();
    if (cfg.startAt() != null && !Instant.now().isBefore(cfg.startAt())) {
      throw new GeneratorException(
          GeneratorException.Kind.CONFIG,
          "start at "
              + cfg.startAt()
              + " has already passed (now "
              + Instant.now()
              + "); refusing to start late, which would shift this segment against the others");
    }
    RunClock clock = new RunClock(hooks);
    List<TargetRun> targets = presign(cfg, durationNanos, progress);
    WebSocketClient client = new WebSocketClient();
    client.setMaxTextMessageSize(cfg.maxFrameBytes());
    client.setIdleTimeout(
        cfg.duration()
            .plus(cfg.publishTimeout())
            .plus(lateSendSlack(cfg.duration()))
            .plus(cfg.warmup())
            .plus(untilStart(cfg))
            .plusSeconds(60));
    client.setConnectTimeout(cfg.connectTimeout().toMillis());
    client.setStopTimeout(1000);
    List<Conn> all = new ArrayList<>();
    try {
      try {
        client.start();
      } catch (Exception e) {
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE, "cannot start the WebSocket client: " + e, e);
      }
      for (TargetRun t : targets) {
        for (int c = 0; c < t.conns.length; c++) {
          t.conns[c] = new Conn(t, c, clock);
          all.add(t.conns[c]);
        }
      }
      connectAll(client, all, cfg.connectTimeout(), progress);
      warmUp(all);
      return sendAndReport(cfg, targets, all, clock, progress);
    } finally {
      for (Conn c : all) {
        c.closingByUs = true;
        Session s = c.session;
        if (s != null && s.isOpen()) {
          s.close(1000, "generator done", Callback.NOOP);
        }
      }
      try {
        client.stop();
      } catch (Exception e) {
        progress.progress("warning: WebSocket client did not stop cleanly: " + e);
      }
    }
  }

  private static Duration untilStart(GeneratorConfig cfg) {
    if (cfg.startAt() == null) {
      return Duration.ZERO;
    }
    Duration d = Duration.between(Instant.now(), cfg.startAt());
    return d.isNegative() ? Duration.ZERO : d;
  }

  private static List<TargetRun> presign(
      GeneratorConfig cfg, long durationNanos, ProgressListener progress)
      throws GeneratorException {
    byte[] nonceBytes = new byte[6];
    new SecureRandom().nextBytes(nonceBytes);
    // A per-run nonce in the content keeps ids unique across repeats against the same relay.
    String nonce = HexFormat.of().formatHex(nonceBytes);
    long createdAt = System.currentTimeMillis() / 1000;
    List<TargetRun> out = new ArrayList<>();
    for (int ti = 0; ti < cfg.loads().size(); ti++) {
      TargetLoad load = cfg.loads().get(ti);
      Schedule s = new Schedule(load.ratePerS(), durationNanos, cfg.segment(), load.connections());
      long owned = s.ownedSlots();
      if (owned > Integer.MAX_VALUE - 8) {
        throw new GeneratorException(
            GeneratorException.Kind.CONFIG,
            "target " + (ti + 1) + " needs " + owned + " events; at most 2^31 per run");
      }
      int n = (int) owned;
      progress.progress(
          "target "
              + (ti + 1)
              + ": pre-signing "
              + n
              + " events with "
              + load.identities()
              + " identities");
      Keys[] keys = new Keys[load.identities()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = Keys.generate();
      }
      String[] frames = new String[n];
      String[] ids = new String[n];
      int tIndex = ti;
      try {
        IntStream.range(0, n)
            .parallel()
            .forEach(
                j -> {
                  String content =
                      content(nonce, tIndex, s.globalSlot(j), load.target().contentBytes());
                  NostrEvent e =
                      EventSigner.sign(
                          keys[j % keys.length],
                          createdAt,
                          load.target().kind(),
                          load.target().tags(),
                          content);
                  ids[j] = e.id();
                  frames[j] = "[\"EVENT\"," + e.toJson() + "]";
                });
      } catch (RuntimeException e) {
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE,
            "cannot sign events for target " + (ti + 1) + ": " + e,
            e);
      }
      Map<String, Integer> byId = new HashMap<>(n * 2);
      for (int j = 0; j < n; j++) {
        byId.put(ids[j], j);
      }
      long warmupNanos = cfg.warmup().toNanos();
      int firstMeasured = 0;
      while (firstMeasured < n && s.ownedDueOffsetNanos(firstMeasured) < warmupNanos) {
        firstMeasured++;
      }
      out.add(new TargetRun(ti, load, s, keys, frames, byId, firstMeasured));
    }
    return out;
  }

  /** Content: nonce, target and slot (so every event is unique), padded with '.' to size. */
  static String content(String nonce, int target, long k, int bytes) {
    StringBuilder sb = new StringBuilder(bytes);
    sb.append(nonce).append(':').append(target).append(':').append(Long.toString(k, 36));
    if (sb.length() > bytes) {
      throw new IllegalStateException(
          "content of " + bytes + " bytes cannot hold the unique prefix " + sb);
    }
    while (sb.length() < bytes) {
      sb.append('.');
    }
    return sb.toString();
  }

  private static void connectAll(
      WebSocketClient client, List<Conn> all, Duration timeout, ProgressListener progress)
      throws GeneratorException {
    progress.progress("connecting " + all.size() + " connections");
    List<CompletableFuture<Session>> futures = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Conn c : all) {
      URI uri = URI.create(c.target.load.target().url());
      ClientUpgradeRequest req = new ClientUpgradeRequest(uri);
      String host = c.target.load.target().hostHeader();
      if (host != null) {
        req.setHeader("Host", host);
      }
      try {
        futures.add(client.connect(c, req));
      } catch (java.io.IOException | RuntimeException e) {
        futures.add(CompletableFuture.failedFuture(e));
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < all.size(); i++) {
      Conn c = all.get(i);
      try {
        long left = Math.max(1, deadline - System.nanoTime());
        c.session = futures.get(i).get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        failures.add(c.describe() + ": no upgrade within " + timeout.toMillis() + " ms");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        failures.add(c.describe() + ": " + cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE, "interrupted while connecting", e);
      }
    }
    if (!failures.isEmpty()) {
      for (CompletableFuture<Session> f : futures) {
        f.cancel(true);
      }
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "connect failed before the clock started ("
              + failures.size()
              + " of "
              + all.size()
              + "): "
              + String.join("; ", failures.subList(0, Math.min(5, failures.size())))
              + (failures.size() > 5 ? "; ..." : ""));
    }
  }

  /**
   * Pings every connection once and waits for the writes: the first frame through a session loads
   * and links Jetty's send path, which on a cold JVM costs tens of ms and would land on slot 0.
   */
  private static void warmUp(List<Conn> all) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (Conn c : all) {
      CompletableFuture<Void> f = new CompletableFuture<>();
      c.session.sendPing(
          java.nio.ByteBuffer.wrap(new byte[] {1}),
          Callback.from(() -> f.complete(null), f::completeExceptionally));
      done.add(f);
    }
    try {
      CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get(2, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // A connection that cannot take a ping will show up as a write error during the run.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Histogram h = LatencySummary.newHistogram();
    h.recordValue(1);
    Sender.waitUntil(System.nanoTime() + 1_000);
  }

  private static GeneratorReport sendAndReport(
      GeneratorConfig cfg,
      List<TargetRun> targets,
      List<Conn> all,
      RunClock clock,
      ProgressListener progress)
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
    clock.startNanos = startNanos;
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
              clock.hooks,
              sentTotal);
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
            windowEndNanos);
    window.start();
    try {
      while (System.nanoTime() < windowStartNanos) {
        java.util.concurrent.locks.LockSupport.parkNanos(
            Math.min(windowStartNanos - System.nanoTime(), 100_000_000L));
      }
      for (TargetRun t : targets) {
        t.counting = true;
      }
      for (Thread th : threadList) {
        while (th.isAlive()) {
          th.join(1000);
          if (th.isAlive()) {
            progress.progress(
                String.format(
                    java.util.Locale.ROOT,
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
      for (long u : s.unsentLate) {
        unsentLateTotal += u;
      }
    }
    long endOfSends = unsentLateTotal > 0 ? sendDeadline : (lastSend == 0 ? startNanos : lastSend);
    long graceStart = System.nanoTime();
    long graceEnd = Math.max(graceStart, endOfSends + cfg.publishTimeout().toNanos());
    long sent = sentTotal.get();
    while (answered(targets) < sent && System.nanoTime() < graceEnd) {
      java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
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
    progress.progress(
        String.format(
            java.util.Locale.ROOT,
            "done: sent=%d answered=%d grace waited %.3f s",
            sent,
            answered(targets),
            graceWaitedS));
    return report(
        cfg,
        targets,
        senders,
        windowStart,
        startNanos,
        windowStartNanos,
        endOfSends,
        graceWaitedS,
        threads);
  }

  /**
   * Calls the window listener when the measurement window opens and when it closes (start + warm-up
   * + duration), from a thread that sends nothing, so a slow callback (a metrics scrape) never
   * delays a slot and the two calls bracket exactly the window the throughput is counted in.
   */
  private static Thread windowThread(
      GeneratorConfig cfg, Instant start, long startNanos, Instant end, long endNanos) {
    Thread th =
        new Thread(
            () -> {
              Sender.waitUntil(startNanos);
              cfg.windowListener().windowStarted(start);
              Sender.waitUntil(endNanos);
              cfg.windowListener().windowEnded(end);
            },
            "ceiling-window");
    th.setDaemon(true);
    return th;
  }

  private static long answered(List<TargetRun> targets) {
    long n = 0;
    for (TargetRun t : targets) {
      n += t.answeredCount();
    }
    return n;
  }

  private static GeneratorReport report(
      GeneratorConfig cfg,
      List<TargetRun> targets,
      List<Sender> senders,
      Instant windowStart,
      long startNanos,
      long windowStartNanos,
      long endOfSends,
      double graceWaitedS,
      int threads) {
    double durS = cfg.duration().toNanos() / 1e9;
    List<GeneratorReport.TargetReport> perTarget = new ArrayList<>();
    List<GeneratorReport.Result> results = new ArrayList<>();
    Histogram aggLag = LatencySummary.newHistogram();
    Histogram aggService = LatencySummary.newHistogram();
    Histogram aggScheduled = LatencySummary.newHistogram();
    for (TargetRun t : targets) {
      int ti = t.index;
      Histogram lag = LatencySummary.newHistogram();
      long sent = 0;
      long late = 0;
      long dead = 0;
      long cap = 0;
      for (Sender s : senders) {
        lag.add(s.sendLagUs[ti]);
        sent += s.sent[ti];
        late += s.unsentLate[ti];
        dead += s.unsentDead[ti];
        cap += s.capDelayed[ti];
      }
      GeneratorReport.Result r;
      synchronized (t) {
        long answered = t.accepted + t.rejected;
        double offered = t.load.ratePerS() / cfg.segment().count();
        String reason =
            SelfCheck.reason(
                cfg.sendLagBound().toNanos() / 1000,
                t.schedule.segmentIntervalNanos(),
                t.frames.length - t.firstMeasured,
                late,
                cap,
                lag);
        r =
            new GeneratorReport.Result(
                offered,
                t.frames.length - t.firstMeasured,
                sent,
                late,
                dead,
                cap,
                sent,
                t.accepted,
                t.rejected,
                t.rejectedByPrefix,
                t.firstRejection,
                t.notices,
                t.firstNotice,
                sent - answered,
                t.unknownOkIds,
                t.duplicateOks,
                t.authChallenges,
                t.transportErrors,
                t.firstTransportError,
                t.acceptedInWindow,
                t.accepted / durS,
                t.accepted / (offered * durS),
                LatencySummary.of(lag),
                LatencySummary.of(t.serviceUs),
                LatencySummary.of(t.scheduledUs),
                reason != null,
                reason);
        aggService.add(t.serviceUs);
        aggScheduled.add(t.scheduledUs);
      }
      aggLag.add(lag);
      results.add(r);
      perTarget.add(
          new GeneratorReport.TargetReport(
              t.load.target().community(),
              t.load.target().url(),
              t.load.target().hostHeader(),
              t.load.ratePerS(),
              t.load.connections(),
              t.load.identities(),
              r));
    }
    GeneratorReport.Result agg = aggregate(cfg, results, aggLag, aggService, aggScheduled, durS);
    Double busy = null;
    for (Sender s : senders) {
      long window = Math.max(s.lastDueNanos, s.lastSendNanos) - startNanos;
      if (s.lastSendNanos > 0 && window > 0) {
        double f = (double) s.busyNanos / window;
        busy = busy == null ? f : Math.max(busy, f);
      }
    }
    Double headroom = busy == null || busy <= 0 ? null : 1.0 / busy;
    Double senderCpuS = 0.0;
    for (Sender s : senders) {
      senderCpuS = s.cpuNanos < 0 || senderCpuS == null ? null : senderCpuS + s.cpuNanos / 1e9;
    }
    Double firstSlotLateMs = ClockStart.firstSlotLateMs(senders);
    return new GeneratorReport(
        cfg.describe(),
        cfg.segment().toString(),
        cfg.startAt(),
        StartInstant.clockSource(),
        firstSlotLateMs,
        windowStart,
        durS,
        Math.max(0, endOfSends - windowStartNanos) / 1e9,
        graceWaitedS,
        threads,
        busy,
        senderCpuS,
        headroom,
        agg.generatorBound(),
        agg.generatorBoundReason(),
        agg,
        perTarget);
  }

  private static GeneratorReport.Result aggregate(
      GeneratorConfig cfg,
      List<GeneratorReport.Result> rs,
      Histogram lag,
      Histogram service,
      Histogram scheduled,
      double durS) {
    long planned = 0;
    long sent = 0;
    long late = 0;
    long dead = 0;
    long cap = 0;
    long accepted = 0;
    long rejected = 0;
    long notices = 0;
    long unack = 0;
    long inWindow = 0;
    long unknown = 0;
    long dup = 0;
    long auth = 0;
    Map<String, Long> prefixes = new TreeMap<>();
    Map<String, Long> transport = new TreeMap<>();
    String firstRejection = null;
    String firstNotice = null;
    String firstTransport = null;
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i < rs.size(); i++) {
      GeneratorReport.Result r = rs.get(i);
      planned += r.slotsPlanned();
      sent += r.slotsSent();
      late += r.slotsUnsentLate();
      dead += r.slotsUnsentDeadConnection();
      cap += r.slotsCapDelayed();
      accepted += r.accepted();
      rejected += r.rejected();
      notices += r.notices();
      unack += r.unacknowledged();
      inWindow += r.acceptedInWindow();
      unknown += r.unknownOkIds();
      dup += r.duplicateOks();
      auth += r.authChallenges();
      r.rejectedByPrefix().forEach((k, v) -> prefixes.merge(k, v, Long::sum));
      r.transportErrors().forEach((k, v) -> transport.merge(k, v, Long::sum));
      firstRejection = firstRejection != null ? firstRejection : r.firstRejection();
      firstNotice = firstNotice != null ? firstNotice : r.firstNotice();
      firstTransport = firstTransport != null ? firstTransport : r.firstTransportError();
      if (r.generatorBound()) {
        reasons.add("target " + (i + 1) + ": " + r.generatorBoundReason());
      }
    }
    double offered = cfg.offeredPerS();
    String reason = reasons.isEmpty() ? null : String.join("; ", reasons);
    return new GeneratorReport.Result(
        offered,
        planned,
        sent,
        late,
        dead,
        cap,
        sent,
        accepted,
        rejected,
        prefixes,
        firstRejection,
        notices,
        firstNotice,
        unack,
        unknown,
        dup,
        auth,
        transport,
        firstTransport,
        inWindow,
        accepted / durS,
        accepted / (offered * durS),
        LatencySummary.of(lag),
        LatencySummary.of(service),
        LatencySummary.of(scheduled),
        reason != null,
        reason);
  }
}
