package dev.ceiling.prom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ceiling.prom.CounterDelta.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scraper against a real HTTP server on 127.0.0.1. */
class MetricsScraperIT {
  // Generous enough for a cold JVM on a loaded 2-core machine, short against SLOW_SERVER.
  private static final Duration CONNECT = Duration.ofSeconds(1);
  private static final Duration READ = Duration.ofMillis(500);

  /** How long the slow endpoints stall by default (they are released at teardown). */
  private static final Duration SLOW_SERVER = Duration.ofSeconds(5);

  /** The stall the patient partners sit through: long against READ, short for the suite. */
  private static final String PATIENT_STALL = "?ms=1000";

  private HttpServer server;
  private ExecutorService executor;
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicReference<String> lyingBody = new AtomicReference<>("");
  private static boolean warm;
  private int bigBytes;
  private final MetricsScraper scraper = new MetricsScraper(CONNECT, READ, 1000);

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    executor = Executors.newFixedThreadPool(4);
    server.setExecutor(executor);
    server.createContext(
        "/ok",
        x ->
            send(
                x,
                200,
                "text/plain; version=0.0.4; charset=utf-8",
                "# TYPE req_total counter\nreq_total{k=\"a\"} 5\nreq_total{k=\"b\"} 7\n",
                true));
    server.createContext("/500", x -> send(x, 500, "text/plain", "boom\n", true));
    server.createContext("/bad", x -> send(x, 200, "text/plain", "ok 1\nbad{x=\"1\" 2\n", true));
    server.createContext(
        "/openmetrics",
        x -> send(x, 200, "application/openmetrics-text; version=1.0.0", "# EOF\n", true));
    server.createContext(
        "/latin1",
        x -> {
          byte[] body = "a{x=\"\u00e9\"} 1\n".getBytes(StandardCharsets.ISO_8859_1);
          x.getResponseHeaders().set("Content-Type", "text/plain");
          x.sendResponseHeaders(200, body.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(body);
          }
        });
    StringBuilder bigBody = new StringBuilder();
    for (int i = 0; bigBody.length() < 2000; i++) {
      bigBody.append("x{i=\"").append(i).append("\"} 1\n");
    }
    String big = bigBody.toString();
    bigBytes = big.length();
    server.createContext("/big", x -> send(x, 200, "text/plain", big, true));
    server.createContext("/big-chunked", x -> send(x, 200, "text/plain", big, false));
    server.createContext(
        "/slow-headers",
        x -> {
          await(stall(x));
          send(x, 200, "text/plain", "x 1\n", true);
        });
    server.createContext(
        "/slow-body",
        x -> {
          x.getResponseHeaders().set("Content-Type", "text/plain");
          x.sendResponseHeaders(200, 0);
          try (OutputStream out = x.getResponseBody()) {
            out.write("x 1\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            await(stall(x));
            out.write("y 2\n".getBytes(StandardCharsets.UTF_8));
          }
        });
    server.createContext("/lying", x -> send(x, 200, "text/plain", lyingBody.get(), true));
    server.start();
    // Warm up the JDK's HTTP classes once so the first timed request does not pay for class
    // loading.
    if (warm) {
      return;
    }
    warm = true;
    try {
      new MetricsScraper(Duration.ofSeconds(10), Duration.ofSeconds(10), 1000).scrape(url("/ok"));
    } catch (MetricsException e) {
      throw new AssertionError(e);
    }
  }

  @AfterEach
  void stop() throws InterruptedException {
    release.countDown();
    server.stop(0);
    executor.shutdownNow();
    assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  private static Duration stall(HttpExchange x) {
    String q = x.getRequestURI().getQuery();
    return q != null && q.startsWith("ms=")
        ? Duration.ofMillis(Long.parseLong(q.substring(3)))
        : SLOW_SERVER;
  }

  private void await(Duration d) {
    try {
      release.await(d.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(HttpExchange x, int status, String type, String body, boolean withLength)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(status, withLength ? bytes.length : 0);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  @Test
  void scrapesANormalBody() throws MetricsException {
    Snapshot s = scraper.scrape(url("/ok"));
    assertThat(s.source()).isEqualTo(url("/ok"));
    Reading r = s.read(Selector.of("req_total"));
    assertThat(r.value()).isEqualTo(12.0);
    assertThat(r.seriesMatched()).isEqualTo(2);
  }

  @Test
  void non200NamesUrlStatusAndBody() {
    assertThatThrownBy(() -> scraper.scrape(url("/500")))
        .isInstanceOf(MetricsException.class)
        .hasMessage(url("/500") + ": expected HTTP status 200, got 500 with body 'boom'");
  }

  @Test
  void badBodyNamesUrlLineAndColumn() {
    assertThatThrownBy(() -> scraper.scrape(url("/bad")))
        .isInstanceOf(MetricsException.class)
        .hasMessage(
            url("/bad") + ": 2:11: expected ',' or '}' after the value of label 'x', got '2'")
        .satisfies(
            e -> {
              assertThat(((MetricsException) e).line()).isEqualTo(2);
              assertThat(((MetricsException) e).column()).isEqualTo(11);
            });
  }

  @Test
  void otherContentTypesAreRefused() {
    assertThatThrownBy(() -> scraper.scrape(url("/openmetrics")))
        .hasMessage(
            url("/openmetrics")
                + ": expected Content-Type text/plain (text format 0.0.4),"
                + " got 'application/openmetrics-text; version=1.0.0'");
  }

  @Test
  void nonUtf8BodyIsRefused() {
    assertThatThrownBy(() -> scraper.scrape(url("/latin1")))
        .hasMessage(url("/latin1") + ": body is not valid UTF-8");
  }

  @Test
  void oversizeBodyIsCappedWithAndWithoutContentLength() throws MetricsException {
    assertThatThrownBy(() -> scraper.scrape(url("/big")))
        .hasMessage(
            url("/big")
                + ": body of "
                + bigBytes
                + " bytes (Content-Length) exceeds the cap of 1000 bytes");
    assertThatThrownBy(() -> scraper.scrape(url("/big-chunked")))
        .hasMessage(
            url("/big-chunked") + ": body exceeds the cap of 1000 bytes (cut off while streaming)");
    // Mutant partner: without the cap the same bodies are accepted, so the cap is what refused
    // them.
    MetricsScraper uncapped = new MetricsScraper(CONNECT, READ, Integer.MAX_VALUE);
    assertThat(uncapped.scrape(url("/big")).read(Selector.of("x")).seriesMatched())
        .isGreaterThan(100);
    assertThat(uncapped.scrape(url("/big-chunked")).families()).isNotEmpty();
  }

  @Test
  void slowHeadersTimeOut() throws MetricsException {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> scraper.scrape(url("/slow-headers")))
        .hasMessage(url("/slow-headers") + ": no response within 500 ms (read timeout)");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
    // Mutant partner: a patient scraper gets the body, so the timeout is what failed it.
    MetricsScraper patient = new MetricsScraper(CONNECT, Duration.ofSeconds(10), 1000);
    assertThat(patient.scrape(url("/slow-headers" + PATIENT_STALL)).read(Selector.of("x")).value())
        .isEqualTo(1.0);
  }

  @Test
  void tricklingBodyTimesOut() throws MetricsException {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> scraper.scrape(url("/slow-body")))
        .hasMessage(
            url("/slow-body")
                + ": no complete response within 1500 ms (connect timeout + read timeout)");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
    MetricsScraper patient = new MetricsScraper(CONNECT, Duration.ofSeconds(10), 1000);
    assertThat(patient.scrape(url("/slow-body" + PATIENT_STALL)).read(Selector.of("y")).value())
        .isEqualTo(2.0);
  }

  @Test
  void refusedConnectionNamesUrl() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI closed = URI.create("http://127.0.0.1:" + port + "/metrics");
    assertThatThrownBy(() -> scraper.scrape(closed))
        .isInstanceOf(MetricsException.class)
        .hasMessageStartingWith(closed + ": fetch failed: ConnectException");
  }

  @Test
  void lyingEndpoint() throws MetricsException {
    Selector req = Selector.parse("req_total{k=\"a\"}");
    Selector quota = Selector.parse("rej_total{reason=\"quota\"}");

    lyingBody.set("req_total{k=\"a\"} 10\nreq_total{k=\"b\"} 1\n");
    Snapshot s1 = scraper.scrape(url("/lying"));
    lyingBody.set("req_total{k=\"a\"} 14\nreq_total{k=\"b\"} 1\n");
    Snapshot s2 = scraper.scrape(url("/lying"));
    lyingBody.set("req_total{k=\"a\"} 3\nreq_total{k=\"b\"} 1\n"); // goes backwards
    Snapshot s3 = scraper.scrape(url("/lying"));
    lyingBody.set("req_total{k=\"b\"} 1\n"); // series vanishes
    Snapshot s4 = scraper.scrape(url("/lying"));

    assertThat(CounterDelta.between(s1, s2, req, false).delta()).isEqualTo(4.0);
    CounterDelta backwards = CounterDelta.between(s2, s3, req, false);
    assertThat(backwards.kind()).isEqualTo(Kind.RESET);
    assertThat(backwards.reason()).isEqualTo("req_total{k=\"a\"} went down from 14.0 to 3.0");

    assertThat(CounterDelta.between(s3, s4, req, false).kind()).isEqualTo(Kind.NOT_EXPOSED);
    assertThat(CounterDelta.between(s3, s4, req, true).kind()).isEqualTo(Kind.RESET);
    // Never exposed at all: NOT_EXPOSED unless declared positive-controlled, then 0.
    assertThat(CounterDelta.between(s3, s4, quota, false).kind()).isEqualTo(Kind.NOT_EXPOSED);
    assertThat(CounterDelta.between(s3, s4, quota, true).delta()).isEqualTo(0.0);
  }

  @Test
  void oneScraperServesManyThreads() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Double>> results = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        results.add(
            pool.submit(() -> scraper.scrape(url("/ok")).read(Selector.of("req_total")).value()));
      }
      for (Future<Double> f : results) {
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(12.0);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
