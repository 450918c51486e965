package dev.ceiling.rig.internal;

import dev.ceiling.core.net.Loopback;
import dev.ceiling.core.net.LoopbackAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One way to ask a started relay whether it serves, with the address expanded. The pid file keeps
 * {@link #serialized()} (a URL) so {@code status} asks the same way later; {@link #parse} reads it
 * back. Every ask is bounded ({@link #CONNECT}, {@link #ANSWER}) and never throws for a relay that
 * does not answer: that is "not ready".
 */
public sealed interface Probe permits Probe.UrlProbe, Probe.TcpAccept {
  /** How long a connection may take to open. */
  Duration CONNECT = Duration.ofSeconds(1);

  /** How long an opened connection may take to answer. */
  Duration ANSWER = Duration.ofSeconds(2);

  /** The address as the pid file records it. */
  String serialized();

  /** What should be true, for messages: "GET x to return 200", ... */
  String describe();

  /**
   * True when the relay answers now.
   *
   * @throws InterruptedException when the asking thread is interrupted; the ask is abandoned
   */
  boolean answers() throws InterruptedException;

  /** A probe of a URL, which is also its serialized form. */
  sealed interface UrlProbe extends Probe permits HttpHealth, WebSocketHandshake {
    URI url();

    @Override
    default String serialized() {
      return url().toString();
    }
  }

  /** {@code GET url} returns 200. */
  record HttpHealth(URI url) implements UrlProbe {
    public HttpHealth {
      Objects.requireNonNull(url, "url must not be null");
    }

    @Override
    public String describe() {
      return "GET " + url + " to return 200";
    }

    @Override
    public boolean answers() throws InterruptedException {
      try {
        HttpResponse<Void> r =
            ProbeClient.HTTP.send(
                HttpRequest.newBuilder(LoopbackAddress.connectUri(url, CONNECT))
                    .timeout(ANSWER)
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        return r.statusCode() == 200;
      } catch (IOException | IllegalArgumentException e) {
        return false;
      }
    }
  }

  /** The opening WebSocket handshake on the relay's own URL succeeds (no health endpoint). */
  record WebSocketHandshake(URI url) implements UrlProbe {
    public WebSocketHandshake {
      Objects.requireNonNull(url, "url must not be null");
    }

    @Override
    public String describe() {
      return "a WebSocket handshake on " + url + " to succeed";
    }

    @Override
    public boolean answers() throws InterruptedException {
      try {
        WebSocket ws =
            ProbeClient.HTTP
                .newWebSocketBuilder()
                .connectTimeout(CONNECT)
                .buildAsync(LoopbackAddress.connectUri(url, CONNECT), new WebSocket.Listener() {})
                .get(ANSWER.toMillis(), TimeUnit.MILLISECONDS);
        // The handshake is the answer; drop the connection without waiting for a close reply.
        ws.abort();
        return true;
      } catch (ExecutionException
          | TimeoutException
          | CompletionException
          | IllegalArgumentException e) {
        return false;
      }
    }
  }

  /**
   * A TCP connect succeeds.
   *
   * @param host the host, a loopback address when the rig made it
   * @param port 1..65535
   */
  record TcpAccept(String host, int port) implements Probe {
    public TcpAccept {
      Objects.requireNonNull(host, "host must not be null");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
      }
    }

    /** A connect on 127.0.0.1. */
    public static TcpAccept loopback(int port) {
      return new TcpAccept("127.0.0.1", port);
    }

    @Override
    public String serialized() {
      return "tcp://" + host + ":" + port;
    }

    @Override
    public String describe() {
      return host + ":" + port + " to accept a connection";
    }

    @Override
    public boolean answers() {
      try (Socket s = new Socket()) {
        // A loopback name is never looked up: its address is chosen the same way a
        // connection's is.
        InetSocketAddress to =
            Loopback.isLoopbackName(host)
                ? new InetSocketAddress(LoopbackAddress.choose(host, port, CONNECT).address(), port)
                : new InetSocketAddress(host, port);
        s.connect(to, (int) CONNECT.toMillis());
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }

  /** The probe a pid file recorded, or empty for an address that is none of the three. */
  static Optional<Probe> parse(String serialized) {
    URI uri;
    try {
      uri = serialized == null ? null : URI.create(serialized);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
      return Optional.empty();
    }
    return switch (uri.getScheme().toLowerCase(Locale.ROOT)) {
      case "http", "https" -> Optional.of(new HttpHealth(uri));
      case "ws", "wss" -> Optional.of(new WebSocketHandshake(uri));
      case "tcp" ->
          uri.getPort() < 1
              ? Optional.empty()
              : Optional.of(new TcpAccept(uri.getHost(), uri.getPort()));
      default -> Optional.empty();
    };
  }
}
