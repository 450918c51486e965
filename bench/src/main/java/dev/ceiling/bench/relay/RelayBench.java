package dev.ceiling.bench.relay;

import dev.ceiling.core.model.ReadyLine;
import dev.ceiling.core.testing.ChildClasspath;
import dev.ceiling.nostr.EventSigner;
import dev.ceiling.nostr.Keys;
import dev.ceiling.relay.ReferenceRelayMain;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * Throughput of the reference relay, run as its own JVM the way the rig runs it, driven by a
 * closed-loop client (C connections x W events in flight each; the next event goes out when an
 * answer comes back) on the same machine.
 *
 * <ul>
 *   <li>audit off, signatures checked: accepted events/s (target >= 5,000/s);
 *   <li>audit on, injected delay d in {0, 0.2, 0.5, 1.0} ms: the worker's measured ceiling (rows
 *       written per second in steady state, the queue never empty) against the calibrated
 *       prediction 1 / (6 x (d + exchange cost)).
 * </ul>
 *
 * <p>Usage: {@code RelayBench [measureSeconds] [delays...]}. Prints a Markdown table.
 */
public final class RelayBench {
  private RelayBench() {}

  /** One measured run. */
  record Result(
      String arm,
      double delayMillis,
      double acceptedPerSecond,
      double rowsPerSecond,
      double serviceMillis,
      double costMillisAtStart,
      double predictedAtStart,
      double costMillisWarm,
      double predictedWarm,
      double predictedWarmHot,
      double relayCpuMicrosPerEvent,
      double clientCpuMicrosPerEvent,
      long rejected) {}

  public static void main(String[] args) throws Exception {
    int measureSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    List<Double> delays = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      delays.add(Double.parseDouble(args[i]));
    }
    if (delays.isEmpty()) {
      delays = List.of(0.0, 0.2, 0.5, 1.0);
    }
    if (delays.size() == 1 && delays.get(0) < 0) {
      delays = List.of(); // a negative delay alone: audit-off arm only
    }
    int needed = 80_000;
    System.err.printf(Locale.ROOT, "signing %d events...%n", needed);
    List<String> frames = sign(needed);
    List<Result> results = new ArrayList<>();
    results.add(run(frames, false, 0.0, measureSeconds, 4, 64));
    for (double d : delays) {
      results.add(run(frames, true, d, measureSeconds, 4, 64));
    }
    System.out.println(
        "| arm | delay ms | accepted/s | rows/s | mean entry service ms | cost ms (start) |"
            + " predicted/s (start) | cost ms (warm) | predicted/s (warm, cold-hot) |"
            + " rows/s / predicted (warm, cold-hot) | relay CPU µs/event | client CPU µs/event |"
            + " rejected |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      System.out.println(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.0f | %s | %s | %.3f | %.0f | %.3f | %.0f-%.0f | %s | %.0f | %.0f | %d |",
              r.arm(),
              r.delayMillis(),
              r.acceptedPerSecond(),
              r.arm().equals("off") ? "-" : String.format(Locale.ROOT, "%.0f", r.rowsPerSecond()),
              r.arm().equals("off") ? "-" : String.format(Locale.ROOT, "%.3f", r.serviceMillis()),
              r.costMillisAtStart(),
              r.predictedAtStart(),
              r.costMillisWarm(),
              r.predictedWarm(),
              r.predictedWarmHot(),
              r.arm().equals("off")
                  ? "-"
                  : String.format(
                      Locale.ROOT,
                      "%.2f-%.2f",
                      r.rowsPerSecond() / r.predictedWarm(),
                      r.rowsPerSecond() / r.predictedWarmHot()),
              r.relayCpuMicrosPerEvent(),
              r.clientCpuMicrosPerEvent(),
              r.rejected()));
    }
  }

  private static List<String> sign(int n) {
    List<Keys> keys = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      keys.add(Keys.generate());
    }
    long now = System.currentTimeMillis() / 1000;
    return IntStream.range(0, n)
        .parallel()
        .mapToObj(
            i ->
                "[\"EVENT\","
                    + EventSigner.sign(
                            keys.get(i % keys.size()),
                            now,
                            1,
                            List.of(List.of("t", "bench")),
                            "bench event " + i)
                        .toJson()
                    + "]")
        .toList();
  }

  private static Result run(
      List<String> frames,
      boolean audit,
      double delayMillis,
      int measureSeconds,
      int connections,
      int window)
      throws Exception {
    Path dir = Files.createTempDirectory("relaybench");
    Path out = dir.resolve("relay.out");
    Path err = dir.resolve("relay.err");
    List<String> cmd =
        ChildClasspath.command(
            ReferenceRelayMain.class.getName(),
            List.of("-Xmx1g"),
            List.of(
                "--port",
                "0",
                "--db-port",
                "0",
                "--reset",
                "--rig-id",
                "relaybench",
                "--audit",
                audit ? "on" : "off",
                "--audit-exchange-delay-ms",
                Double.toString(delayMillis),
                "--limiter-events-per-sec",
                "1000000",
                "--store-capacity",
                "200000"));
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      ReadyLine ready = awaitReady(p, out, err);
      int port = Integer.parseInt(ready.value("port").orElseThrow());
      double costStart = ready.number("exchange_cost_ms").orElseThrow();
      double predStart = ready.number("predicted_worker_ceiling_per_s").orElseThrow();
      AtomicInteger next = new AtomicInteger();
      AtomicLong accepted = new AtomicLong();
      AtomicLong rejected = new AtomicLong();
      WebSocketClient client = new WebSocketClient();
      client.start();
      List<Session> sessions = new ArrayList<>();
      try {
        for (int c = 0; c < connections; c++) {
          Answers l = new Answers(frames, next, accepted, rejected);
          ClientUpgradeRequest req =
              new ClientUpgradeRequest(URI.create("ws://127.0.0.1:" + port + "/"));
          req.setHeader("Host", "a.localhost:" + port);
          Session s = client.connect(l, req).get(10, TimeUnit.SECONDS);
          l.session = s;
          sessions.add(s);
        }
        for (Session s : sessions) {
          for (int i = 0; i < window; i++) {
            sendNext(s, frames, next);
          }
        }
        // Warm-up: JIT (seconds from -Drelaybench.warmupSeconds, default 2).
        Thread.sleep(Long.getLong("relaybench.warmupSeconds", 2) * 1000L);
        if (audit) {
          // OK is sent once the entry is queued, so until the 1000-slot queue is full every run
          // gets free accepts (the seed's withdrawn-figures trap): measure only once it is full.
          long fillDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          while (metric(get(port, "/metrics"), "refrelay_audit_queue_depth") < 900
              && System.nanoTime() < fillDeadline) {
            Thread.sleep(100);
          }
        }
        long a0 = accepted.get();
        String m0 = get(port, "/metrics");
        long relayCpu0 = cpuNanos(p.toHandle());
        long selfCpu0 = cpuNanos(ProcessHandle.current());
        long t0 = System.nanoTime();
        Thread.sleep(measureSeconds * 1000L);
        long a1 = accepted.get();
        long relayCpu1 = cpuNanos(p.toHandle());
        long selfCpu1 = cpuNanos(ProcessHandle.current());
        String m1 = get(port, "/metrics");
        double secs = (System.nanoTime() - t0) / 1e9;
        double relayCpuMicrosPerEvent = (relayCpu1 - relayCpu0) / 1e3 / Math.max(1, a1 - a0);
        double clientCpuMicrosPerEvent = (selfCpu1 - selfCpu0) / 1e3 / Math.max(1, a1 - a0);
        if (next.get() >= frames.size()) {
          throw new IllegalStateException("ran out of pre-signed events; measure shorter");
        }
        double rows = metric(m1, "refrelay_audit_log_rows") - metric(m0, "refrelay_audit_log_rows");
        double n =
            metric(m1, "refrelay_audit_log_seconds_count")
                - metric(m0, "refrelay_audit_log_seconds_count");
        double sum =
            metric(m1, "refrelay_audit_log_seconds_sum")
                - metric(m0, "refrelay_audit_log_seconds_sum");
        double costWarm = Double.NaN;
        double predWarm = Double.NaN;
        double predWarmHot = Double.NaN;
        // Stop the load and let the queue drain, then calibrate warm and uncontended: a
        // calibration that runs beside the busy worker measures contention, not exchange cost.
        next.set(frames.size());
        long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (metric(get(port, "/metrics"), "refrelay_audit_queue_depth") > 0
            && System.nanoTime() < drainDeadline) {
          Thread.sleep(50);
        }
        if (audit) {
          String cal = get(port, "/calibrate");
          costWarm = jsonNumber(cal, "exchange_cost_ms");
          predWarm = jsonNumber(cal, "predicted_worker_ceiling_per_s");
          predWarmHot = jsonNumber(cal, "predicted_worker_ceiling_hot_per_s");
        }
        Result r =
            new Result(
                audit ? "on" : "off",
                delayMillis,
                (a1 - a0) / secs,
                rows / secs,
                n > 0 ? sum / n * 1e3 : Double.NaN,
                costStart,
                predStart,
                costWarm,
                predWarm,
                predWarmHot,
                relayCpuMicrosPerEvent,
                clientCpuMicrosPerEvent,
                rejected.get());
        System.err.println(r);
        return r;
      } finally {
        client.stop();
      }
    } finally {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  /** Counts answers and sends the next event per answer (closed loop). Public for Jetty. */
  public static final class Answers extends Session.Listener.AbstractAutoDemanding {
    private final List<String> frames;
    private final AtomicInteger next;
    private final AtomicLong accepted;
    private final AtomicLong rejected;
    volatile Session session;

    Answers(List<String> frames, AtomicInteger next, AtomicLong accepted, AtomicLong rejected) {
      this.frames = frames;
      this.next = next;
      this.accepted = accepted;
      this.rejected = rejected;
    }

    @Override
    public void onWebSocketText(String msg) {
      if (msg.startsWith("[\"OK\"") && msg.contains(",true,")) {
        accepted.incrementAndGet();
      } else {
        rejected.incrementAndGet();
      }
      sendNext(session, frames, next);
    }
  }

  private static void sendNext(Session s, List<String> frames, AtomicInteger next) {
    int i = next.getAndIncrement();
    if (i < frames.size() && s != null && s.isOpen()) {
      s.sendText(frames.get(i), Callback.NOOP);
    }
  }

  private static long cpuNanos(ProcessHandle h) {
    return h.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  private static ReadyLine awaitReady(Process p, Path out, Path err) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String text = Files.readString(out);
      int nl = text.indexOf('\n');
      if (nl >= 0) {
        return ReadyLine.parse(ReadyLine.PREFIX, text.substring(0, nl))
            .orElseThrow(() -> new IllegalStateException("not a ready line: " + text));
      }
      if (!p.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("relay not ready; stderr: " + Files.readString(err));
  }

  private static String get(int port, String path) throws IOException, InterruptedException {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .build()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static double metric(String scrape, String name) {
    for (String line : scrape.split("\n", -1)) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    throw new IllegalStateException("no metric " + name);
  }

  private static double jsonNumber(String json, String field) throws IOException {
    com.fasterxml.jackson.databind.JsonNode v =
        dev.ceiling.core.json.Json.mapper().readTree(json).get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalStateException("no number " + field + " in " + json);
    }
    return v.asDouble();
  }
}
