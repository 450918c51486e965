package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.proxy.DelayProxy;
import dev.ceiling.rig.proxy.EchoServer;
import dev.ceiling.rig.proxy.LinkCounters;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A declared upstream with a real relay process (python3 fake_relay.py) and a real echo service.
 */
class UpstreamsIT {
  @TempDir Path dir;

  private static RelayProfile profile(int port, int echoPort) throws RigException {
    String json =
        Fakes.profileJson("ready", port)
            .replace(
                "\"--exit-code\", \"7\"]",
                "\"--exit-code\", \"7\", \"--upstream\", \"${upstream.db.address}\"]")
            .replace(
                "\"queue_capacity\": 10",
                "\"queue_capacity\": 10,\n"
                    + "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:"
                    + echoPort
                    + "\"}]");
    return ProfileReader.read(json, "upstream-profile", null);
  }

  /** Asks the fake relay to make {@code n} sequential exchanges with its upstream. */
  private static String link(int port, int n) throws Exception {
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/link?n=" + n))
            .timeout(Duration.ofSeconds(30))
            .build();
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .build()
        .send(get, HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void theRelayReachesItsUpstreamThroughAProxyThatCountsTurnsAndClosesWithIt() throws Exception {
    int port = Fakes.freePort();
    try (EchoServer echo = new EchoServer()) {
      int echoPort = echo.address().getPort();
      RigHandle h = Fakes.real().up(Fakes.options(profile(port, echoPort), dir.resolve("s")));
      DelayProxy proxy;
      try {
        proxy = h.proxies().get("db");
        int proxyPort = proxy.address().getPort();
        RigDescriptor d = h.descriptor();
        assertThat(d.relayInfo())
            .containsEntry("upstream.db.target", "127.0.0.1:" + echoPort)
            .containsEntry("upstream.db.address", "127.0.0.1:" + proxyPort)
            .containsEntry("upstream.db.via", "proxy");
        assertThat(d.relayCommand()).contains("127.0.0.1:" + proxyPort);
        assertThat(String.join(" ", d.relayCommand())).doesNotContain(":" + echoPort);

        proxy.setDelay(Duration.ofMillis(2));
        LinkCounters before = proxy.counters();
        assertThat(link(port, 5)).isEqualTo("ok 5\n");
        LinkCounters c = proxy.counters().minus(before);
        assertThat(c.connections()).isEqualTo(1);
        assertThat(c.turns()).as("five sequential round trips").isEqualTo(5);
        assertThat(c.bytesToTarget()).isEqualTo(20);
        assertThat(c.bytesToClient()).isEqualTo(20);
      } finally {
        h.stop();
      }
      assertThat(proxy.isClosed()).isTrue();
      java.net.InetSocketAddress gone = proxy.address();
      assertThatThrownBy(() -> new Socket(gone.getAddress(), gone.getPort()).close())
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void linkedDirectlyTheRelayGetsTheTargetItselfAndANoteSaysSo() throws Exception {
    int port = Fakes.freePort();
    try (EchoServer echo = new EchoServer()) {
      int echoPort = echo.address().getPort();
      UpOptions o =
          Fakes.options(profile(port, echoPort), dir.resolve("s"))
              .withUpstreamMode(UpOptions.UpstreamMode.DIRECT);
      try (RigHandle h = Fakes.real().up(o)) {
        assertThat(h.proxies()).isEmpty();
        assertThat(h.descriptor().relayInfo())
            .containsEntry("upstream.db.address", "127.0.0.1:" + echoPort)
            .containsEntry("upstream.db.via", "direct");
        assertThat(h.descriptor().relayCommand()).contains("127.0.0.1:" + echoPort);
        assertThat(h.notes())
            .anySatisfy(
                n ->
                    assertThat(n)
                        .startsWith(
                            "upstream 'db' is linked directly to 127.0.0.1:"
                                + echoPort
                                + ": no delay proxy"));
        assertThat(link(port, 2)).isEqualTo("ok 2\n");
      }
    }
  }

  @Test
  void aFailedStartClosesTheProxiesItOpened() throws Exception {
    int port = Fakes.freePort();
    try (EchoServer echo = new EchoServer()) {
      RelayProfile p =
          ProfileReader.read(
              Fakes.profileJson("exit", port)
                  .replace(
                      "\"--exit-code\", \"7\"]",
                      "\"--exit-code\", \"7\", \"--upstream\", \"${upstream.db.address}\"]")
                  .replace(
                      "\"queue_capacity\": 10",
                      "\"queue_capacity\": 10, \"upstreams\": [{\"name\": \"db\", \"target\":"
                          + " \"127.0.0.1:"
                          + echo.address().getPort()
                          + "\"}]"),
              "exit-profile",
              null);
      int threadsBefore = proxyThreads();
      assertThatThrownBy(() -> Fakes.real().up(Fakes.options(p, dir.resolve("s"))))
          .isInstanceOf(RigException.class)
          // "exited during startup with code 7" when it dies before its argv is seen, "it exited
          // with code 7" when it dies while the rig waits for readiness: which is the scheduler's.
          .hasMessageContaining("with code 7");
      // The event loop has been told to end when up() throws; its thread may take a moment to
      // leave (CI once saw it still alive at a load of 5), so wait for it with a generous deadline.
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
      while (proxyThreads() > threadsBefore && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(proxyThreads()).as("proxy event-loop threads").isLessThanOrEqualTo(threadsBefore);
    }
  }

  /** Live threads of delay proxies' event loops, which end when a proxy closes. */
  private static int proxyThreads() {
    return (int)
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().startsWith("ceiling-delay-proxy"))
            .count();
  }
}
