package dev.ceiling.generator.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/** A small relay on 127.0.0.1:0 whose behaviour each test scripts. */
public final class TestRelay implements AutoCloseable {
  public static final ObjectMapper JSON = new ObjectMapper();

  /** What the relay does; the default acknowledges every EVENT at once. */
  public interface Behavior {
    default void onOpen(Session s, TestRelay relay) {}

    default void onEvent(Session s, JsonNode event, int n, TestRelay relay) {
      ok(s, event.get("id").asText(), true, "");
    }

    default void onAuth(Session s, JsonNode event, TestRelay relay) {}
  }

  public final Server server;
  public final int port;
  public final Behavior behavior;
  public final AtomicInteger events = new AtomicInteger();
  public final List<String> hosts = new CopyOnWriteArrayList<>();
  public final List<JsonNode> auths = new CopyOnWriteArrayList<>();
  public final ConcurrentHashMap<Session, Boolean> authed = new ConcurrentHashMap<>();
  public final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  public TestRelay(Behavior behavior) throws Exception {
    this.behavior = behavior;
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        WebSocketUpgradeHandler.from(
            server,
            container -> {
              container.setMaxTextMessageSize(4 << 20);
              container.addMapping(
                  "/*",
                  (req, resp, cb) -> {
                    hosts.add(req.getHeaders().get("Host"));
                    return new Endpoint();
                  });
            }));
    server.start();
    port = connector.getLocalPort();
  }

  public String url() {
    return "ws://127.0.0.1:" + port + "/";
  }

  public static void ok(Session s, String id, boolean accepted, String msg) {
    send(s, "[\"OK\",\"" + id + "\"," + accepted + ",\"" + msg + "\"]");
  }

  public static void send(Session s, String text) {
    if (s.isOpen()) {
      s.sendText(text, Callback.NOOP);
    }
  }

  public final class Endpoint implements Session.Listener.AutoDemanding {
    private Session session;

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
      behavior.onOpen(s, TestRelay.this);
    }

    @Override
    public void onWebSocketText(String message) {
      try {
        JsonNode n = JSON.readTree(message);
        switch (n.get(0).asText()) {
          case "EVENT" ->
              behavior.onEvent(session, n.get(1), events.incrementAndGet(), TestRelay.this);
          case "AUTH" -> {
            auths.add(n.get(1));
            behavior.onAuth(session, n.get(1), TestRelay.this);
          }
          default -> {}
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("test relay did not stop", e);
    }
  }
}
