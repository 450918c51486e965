package dev.ceiling.rig.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A relay that serves {@code /health} and WebSocket on one server (Node's usual {@code ws} wiring)
 * answers 400 to a request carrying {@code Upgrade: h2c}, which the JDK's HTTP client sends by
 * default. The readiness probe pins HTTP/1.1 and so sees 200; the partner is the JDK's default
 * client against the same server, which gets the 400 (so the server, not luck, tells them apart).
 */
class ProbeHttp11IT {
  @Test
  void theHealthProbeSpeaksHttp11ToARelayThatRefusesH2cUpgrades() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> serve(server), "node-like-relay");
      t.setDaemon(true);
      t.start();
      URI health = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/health");
      assertThat(new Probe.HttpHealth(health).answers()).isTrue();

      HttpClient byDefault = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HttpResponse<String> r =
          byDefault.send(
              HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(400);
    }
  }

  /** 400 to any request with an Upgrade header (the upgrade handler's answer), else 200. */
  private static void serve(ServerSocket server) {
    while (!server.isClosed()) {
      try (Socket s = server.accept()) {
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        boolean upgrade = false;
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
          upgrade |= line.toLowerCase(java.util.Locale.ROOT).startsWith("upgrade:");
        }
        String status = upgrade ? "400 Bad Request" : "200 OK";
        OutputStream out = s.getOutputStream();
        out.write(
            ("HTTP/1.1 " + status + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (java.io.IOException e) {
        return;
      }
    }
  }
}
