package dev.ceiling.rig.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a relay answers, by one probe URL whose scheme says how to ask: {@code http(s)://} is a
 * health URL that must return 200, {@code ws(s)://} is the relay's own WebSocket URL whose opening
 * handshake must succeed (a relay with no health endpoint), {@code tcp://host:port} must accept a
 * connection. One string, so the pid file and status need no other field to re-ask later.
 */
public final class Readiness {
  private static final Duration CONNECT = Duration.ofSeconds(1);
  private static final Duration ANSWER = Duration.ofSeconds(2);
  private static final Duration POLL = Duration.ofMillis(100);

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(CONNECT)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  private Readiness() {}

  /** The probe for TCP readiness on a loopback port. */
  public static String tcp(int port) {
    return "tcp://127.0.0.1:" + port;
  }

  /** True when the probe answers now. Never throws: anything unexpected is "not ready". */
  public static boolean answers(String probe) {
    if (probe == null) {
      return false;
    }
    URI uri;
    try {
      uri = URI.create(probe);
    } catch (IllegalArgumentException e) {
      return false;
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    try {
      return switch (scheme) {
        case "http", "https" -> health(uri);
        case "ws", "wss" -> handshake(uri);
        case "tcp" -> connect(uri);
        default -> false;
      };
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Polls until the probe answers, the timeout, or (when given) the process's exit. */
  public static boolean await(String probe, Duration timeout, Process process) {
    long deadline = System.nanoTime() + timeout.toNanos();
    do {
      if (process != null && !process.isAlive()) {
        return false;
      }
      if (answers(probe)) {
        return true;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    } while (System.nanoTime() - deadline < 0);
    return false;
  }

  /** What the probe waits for, for messages: "GET x to return 200", ... */
  public static String describe(String probe) {
    if (probe == null) {
      return "nothing (no probe)";
    }
    if (probe.startsWith("ws://") || probe.startsWith("wss://")) {
      return "a WebSocket handshake on " + probe + " to succeed";
    }
    if (probe.startsWith("tcp://")) {
      return probe.substring("tcp://".length()) + " to accept a connection";
    }
    return "GET " + probe + " to return 200";
  }

  private static boolean health(URI uri) throws InterruptedException {
    try {
      HttpResponse<Void> r =
          HTTP.send(
              HttpRequest.newBuilder(uri).timeout(ANSWER).GET().build(),
              HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean handshake(URI uri) throws InterruptedException {
    try {
      WebSocket ws =
          HTTP.newWebSocketBuilder()
              .connectTimeout(CONNECT)
              .buildAsync(uri, new WebSocket.Listener() {})
              .get(ANSWER.toMillis(), TimeUnit.MILLISECONDS);
      // The handshake is the answer; drop the connection without waiting for a close reply.
      ws.abort();
      return true;
    } catch (ExecutionException | TimeoutException | CompletionException e) {
      return false;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean connect(URI uri) {
    if (uri.getHost() == null || uri.getPort() < 1) {
      return false;
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), (int) CONNECT.toMillis());
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
