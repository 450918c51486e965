package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.experiment.Identities;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.experiment.SweepProgress;
import dev.ceiling.experiment.SweepRunner;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellProblems;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.VerdictConfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A /metrics that answers in 2 s (under the scraper's 5 s timeout) shifts the relay-side window, so
 * the cell says so and does not count as evidence. The real reference relay's metrics are served
 * through a real HTTP endpoint that waits before it reads them (so the snapshot is taken late, as a
 * slow relay's would be): each scrape's duration is in the cell, and the cell is excluded as
 * SLOW_SCRAPE and, since the relay counted a window late, ACCEPTED_DISAGREES. The partner is the
 * same endpoint without the wait: neither reason.
 *
 * <p>The plan leaves the machine no say. The window is 10 s, so a scrape is slow past 1 s. The slow
 * arm waits 4 s before each read: both scrapes take at least 4 s, and the relay's window starts at
 * least 4 s late while the generator stops at the window's end, so at 30/s the relay counts at
 * least 120 fewer than the generator's 300, against a tolerance of 75 (25%). The fast arm's scrapes
 * must stay under 1 s: with a 5 s window (0.5 s) one fast cell was excluded as SLOW_SCRAPE in a
 * quiet run at a load of 8, alongside a send lag that made it generator-bound too. The scraper's
 * read timeout is 15 s, so the 4 s wait never times out on a stalled machine.
 *
 * <p>One relay and one endpoint serve both tests (started once for the class): the wait is the
 * endpoint's only difference between them, set before each sweep, and each test runs its own sweep
 * with its own journal, so neither reads the other's cell. Counters the relay carries from one
 * sweep into the next are taken as deltas over each cell's window.
 */
class SlowScrapeIT {
  static final double WINDOW_S = 10;

  @TempDir static Path dir;

  /** The endpoint's wait before it reads the relay's metrics, set by each test. */
  static volatile Duration delay = Duration.ZERO;

  static HttpServer proxy;
  static RelayProfile profile;
  static RigHandle rig;

  /** The identity of the last sweep, for judging its cell. */
  ExperimentIdentity identity;

  @BeforeAll
  static void relayBehindTheEndpoint() throws Exception {
    Map<String, String> overrides = Relays.freePorts(Relays.UNDELAYED);
    String upstream = "http://127.0.0.1:" + overrides.get("port") + "/metrics";
    HttpClient client = HttpClient.newHttpClient();
    proxy = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    proxy.createContext(
        "/metrics",
        ex -> {
          try (ex) {
            // Wait first, then read: the snapshot is as late as the answer.
            Thread.sleep(delay.toMillis());
            HttpResponse<byte[]> r =
                client.send(
                    HttpRequest.newBuilder(URI.create(upstream)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            ex.getResponseHeaders()
                .add("Content-Type", r.headers().firstValue("Content-Type").orElse("text/plain"));
            ex.sendResponseHeaders(r.statusCode(), r.body().length);
            try (OutputStream out = ex.getResponseBody()) {
              out.write(r.body());
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    proxy.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    proxy.start();
    profile = metricsAt(proxy.getAddress().getPort());
    rig =
        Rig.up(
            UpOptions.of(profile, "on", dir.resolve("rig"))
                .withReset(true)
                .withOverrides(overrides));
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (rig != null) {
        rig.close();
      }
    } finally {
      if (proxy != null) {
        proxy.stop(0);
      }
    }
  }

  @Test
  void aSlowScrapeExcludesTheCellWithItsOwnReasons() throws Exception {
    Cell slow = measureThroughMetricsDelayedBy(Duration.ofSeconds(4), "slow");
    assertThat(slow.scrapeStartS()).isGreaterThanOrEqualTo(4.0);
    assertThat(slow.scrapeEndS()).isGreaterThanOrEqualTo(4.0);
    assertThat(kinds(slow))
        .as(problems(slow))
        .contains(ProblemKind.SLOW_SCRAPE, ProblemKind.ACCEPTED_DISAGREES);
  }

  @Test
  void theSameEndpointWithoutTheWaitIsNeither() throws Exception {
    Cell fast = measureThroughMetricsDelayedBy(Duration.ZERO, "fast");
    assertThat(fast.scrapeStartS()).as(problems(fast)).isNotNull().isLessThan(4.0);
    assertThat(kinds(fast))
        .as(problems(fast))
        .doesNotContain(ProblemKind.SLOW_SCRAPE, ProblemKind.ACCEPTED_DISAGREES);
  }

  private Cell measureThroughMetricsDelayedBy(Duration wait, String name) throws Exception {
    delay = wait;
    SweepOptions options =
        SweepOptions.defaults(dir.resolve("journal-" + name + ".jsonl"))
            .withWarmup(Duration.ofMillis(500));
    ExperimentIdentity id =
        Identities.of(
            profile, rig.descriptor(), List.of(30.0), WINDOW_S, 1, null, options.measurement());
    SweepRunner.Outcome o =
        new SweepRunner(
                new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(15), 16 * 1024 * 1024),
                new SweepProgress() {})
            .run(rig.descriptor(), id, options);
    assertThat(o.failure()).isNull();
    assertThat(o.half().cells()).hasSize(1);
    identity = o.half().identity();
    return o.half().cells().get(0);
  }

  /** The cell's problems with their messages, and the figures they judge, for a failure's text. */
  private String problems(Cell c) {
    return "scrapes "
        + c.scrapeStartS()
        + " s and "
        + c.scrapeEndS()
        + " s, relay accepted delta "
        + c.delta(MetricRole.EVENTS_ACCEPTED)
        + ", generator "
        + c.acceptedInWindow()
        + " in the window; problems "
        + CellProblems.of(c, identity, VerdictConfig.defaults());
  }

  private List<ProblemKind> kinds(Cell c) {
    return CellProblems.of(c, identity, VerdictConfig.defaults()).stream()
        .map(CellProblem::kind)
        .toList();
  }

  /** The built-in reference profile with its metrics URL on the given port. */
  private static RelayProfile metricsAt(int port) throws Exception {
    ObjectNode root;
    try (InputStream in =
        RelayProfile.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      root = (ObjectNode) Json.mapper().readTree(in);
    }
    root.put("metrics_url", "http://127.0.0.1:" + port + "/metrics");
    Path f = dir.resolve("reference-behind-the-endpoint.json");
    Files.writeString(f, Json.mapper().writeValueAsString(root), StandardCharsets.UTF_8);
    return RelayProfile.load(f);
  }
}
