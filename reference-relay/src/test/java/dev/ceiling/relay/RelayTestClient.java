package dev.ceiling.relay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/** A minimal WebSocket client for the relay tests: sends frames, queues every received frame. */
public final class RelayTestClient implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private final WebSocketClient client;
  private final Session session;
  private final Inbox inbox;

  /** Everything the listener records; exists before the connection so no frame is lost. */
  public static final class Inbox extends Session.Listener.AbstractAutoDemanding {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    final BlockingQueue<Long> receivedAtNanos = new LinkedBlockingQueue<>();
    final CountDownLatch closed = new CountDownLatch(1);
    volatile int closeStatus = -1;
    volatile String closeReason;

    @Override
    public void onWebSocketText(String message) {
      receivedAtNanos.add(System.nanoTime());
      received.add(message);
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason, Callback callback) {
      closeStatus = statusCode;
      closeReason = reason;
      closed.countDown();
      callback.succeed();
    }
  }

  private RelayTestClient(WebSocketClient client, Session session, Inbox inbox) {
    this.client = client;
    this.session = session;
    this.inbox = inbox;
  }

  static RelayTestClient connect(int port, String host) throws Exception {
    return connect(port, host, null);
  }

  /** As {@link #connect(int, String)}, from local address {@code source} (null: the OS chooses). */
  static RelayTestClient connect(int port, String host, InetAddress source) throws Exception {
    WebSocketClient c = new WebSocketClient();
    c.setMaxTextMessageSize(16 * 1024 * 1024);
    if (source != null) {
      c.getHttpClient().setBindAddress(new InetSocketAddress(source, 0));
    }
    c.start();
    Inbox inbox = new Inbox();
    ClientUpgradeRequest req = new ClientUpgradeRequest(URI.create("ws://127.0.0.1:" + port + "/"));
    req.setHeader("Host", host + ":" + port);
    try {
      Session s = c.connect(inbox, req).get(10, TimeUnit.SECONDS);
      return new RelayTestClient(c, s, inbox);
    } catch (Exception e) {
      c.stop();
      throw e;
    }
  }

  void send(String text) {
    session.sendText(text, Callback.NOOP);
  }

  boolean isOpen() {
    return session.isOpen();
  }

  int closeStatus() {
    return inbox.closeStatus;
  }

  /** The next frame, or fails after the timeout. */
  JsonNode next(Duration timeout) throws Exception {
    JsonNode n = poll(timeout);
    if (n == null) {
      throw new AssertionError("no frame from the relay within " + timeout);
    }
    return n;
  }

  /** The next frame or null after the timeout. */
  JsonNode poll(Duration timeout) throws Exception {
    String s = inbox.received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (s != null) {
      inbox.receivedAtNanos.poll();
    }
    return s == null ? null : MAPPER.readTree(s);
  }

  /** Reads frames until n have arrived; receive instants (nanoTime) go to {@code atNanos}. */
  List<JsonNode> next(int n, Duration timeout, List<Long> atNanos) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<JsonNode> out = new ArrayList<>();
    while (out.size() < n) {
      long left = deadline - System.nanoTime();
      String s = left <= 0 ? null : inbox.received.poll(left, TimeUnit.NANOSECONDS);
      if (s == null) {
        throw new AssertionError("got " + out.size() + " of " + n + " frames within " + timeout);
      }
      Long at = inbox.receivedAtNanos.poll();
      if (atNanos != null) {
        atNanos.add(at);
      }
      out.add(MAPPER.readTree(s));
    }
    return out;
  }

  List<JsonNode> next(int n, Duration timeout) throws Exception {
    return next(n, timeout, null);
  }

  boolean awaitClosed(Duration timeout) throws InterruptedException {
    return inbox.closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    if (session.isOpen()) {
      session.close();
    }
    try {
      client.stop();
    } catch (Exception e) {
      throw new IllegalStateException("websocket client did not stop", e);
    }
  }
}
