package dev.ceiling.bench.generator;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The generator benchmark's first null relay, on Jetty, kept to compare with {@link NullRelay}
 * ({@code -Dceiling.bench.nullRelay=jetty}): the same answers, but every OK is its own TCP write,
 * and every read is handed from Jetty's selector to a pool thread, so it costs about twice the CPU
 * per event (43-47 vs 23-25 µs, docs/PERFORMANCE.md) and takes it from the generator beside it.
 */
public final class JettyNullRelay {
  private JettyNullRelay() {}

  public static void main(String[] args) throws Exception {
    Server server = new Server();
    ServerConnector c = new ServerConnector(server);
    c.setHost("127.0.0.1");
    c.setPort(0);
    server.addConnector(c);
    server.setHandler(
        WebSocketUpgradeHandler.from(
            server,
            container -> {
              // Generator processes connect, then wait for a shared start instant (15 s or more
              // with --generators N): Jetty's default idle timeout (30 s) must not close them.
              container.setIdleTimeout(java.time.Duration.ofMinutes(10));
              container.addMapping("/*", (rq, rs, cb) -> new Endpoint());
            }));
    server.start();
    System.out.println(c.getLocalPort());
    System.out.flush();
    // Ends when the parent closes our stdin or destroys us.
    while (System.in.read() >= 0) {
      Thread.onSpinWait();
    }
    server.stop();
  }

  /** One connection of the null relay. */
  public static final class Endpoint implements Session.Listener.AutoDemanding {
    private Session session;

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
    }

    @Override
    public void onWebSocketText(String m) {
      int i = m.indexOf("\"id\":\"");
      if (m.startsWith("[\"EVENT\"") && i > 0 && i + 6 + 64 <= m.length()) {
        session.sendText(
            "[\"OK\",\"" + m.substring(i + 6, i + 6 + 64) + "\",true,\"\"]", Callback.NOOP);
      }
    }
  }
}
