package dev.ceiling.bench.generator;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The generator benchmark's null relay, run as its own JVM so the generator's CPU figures are its
 * own: OK true for every EVENT at once, the id cut from the frame without parsing JSON. Prints its
 * port on stdout and ends when its stdin closes.
 */
public final class NullRelay {
  private NullRelay() {}

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
