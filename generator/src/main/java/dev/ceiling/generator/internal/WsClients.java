package dev.ceiling.generator.internal;

import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.ProgressListener;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * The WebSocket clients of one run: one per configured source address, or one whose connections the
 * OS binds when none is configured. Jetty binds every connection of one {@link HttpClient} to its
 * bind address, so M addresses take M clients; connection k of the run uses client k mod M, which
 * spreads the connections round-robin over the addresses. The clients share one thread pool and one
 * scheduler, so M addresses do not cost M pools of idle threads.
 *
 * <p>Not thread-safe: started and stopped by the engine's thread.
 */
final class WsClients {
  private final QueuedThreadPool pool;
  private final ScheduledExecutorScheduler scheduler;
  private final List<WebSocketClient> clients;
  private final List<InetAddress> sources;

  private WsClients(
      QueuedThreadPool pool,
      ScheduledExecutorScheduler scheduler,
      List<WebSocketClient> clients,
      List<InetAddress> sources) {
    this.pool = pool;
    this.scheduler = scheduler;
    this.clients = clients;
    this.sources = sources;
  }

  /** Starts every client of {@code cfg}; on failure stops what was started and throws. */
  static WsClients start(GeneratorConfig cfg) throws GeneratorException {
    return start(cfg, ClockStart.untilStart(cfg.startAt()));
  }

  /**
   * As above, for connections that may wait up to {@code beforeClock} idle between being warmed up
   * and the clock's start.
   */
  static WsClients start(GeneratorConfig cfg, Duration beforeClock) throws GeneratorException {
    QueuedThreadPool pool = new QueuedThreadPool();
    pool.setName("generator-ws");
    ScheduledExecutorScheduler scheduler =
        new ScheduledExecutorScheduler("generator-ws-scheduler", false);
    List<InetAddress> sources = cfg.sourceAddresses();
    WsClients all = new WsClients(pool, scheduler, new ArrayList<>(), sources);
    try {
      pool.start();
      scheduler.start();
      int n = Math.max(1, sources.size());
      for (int i = 0; i < n; i++) {
        HttpClient http =
            new HttpClient(new HttpClientTransportOverHTTP(new SelectorThreadReads()));
        // Started before they are added, so each client uses them without owning their lifecycle.
        http.setExecutor(pool);
        http.setScheduler(scheduler);
        if (!sources.isEmpty()) {
          http.setBindAddress(new InetSocketAddress(sources.get(i), 0));
        }
        WebSocketClient client = new WebSocketClient(http);
        all.clients.add(client);
        Connector.configure(client, cfg, beforeClock);
        client.start();
      }
    } catch (Exception e) {
      all.stop(line -> {});
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "cannot start the WebSocket client"
              + (sources.isEmpty() ? "" : "s for source addresses " + names(sources))
              + ": "
              + e,
          e);
    }
    return all;
  }

  /** The client of the run's connection {@code k} (0-based, over all targets). */
  WebSocketClient forConnection(int k) {
    return clients.get(k % clients.size());
  }

  /** The source address connection {@code k} binds to, or null when the OS chooses. */
  InetAddress sourceOf(int k) {
    return sources.isEmpty() ? null : sources.get(k % sources.size());
  }

  /** Stops every client, then the shared pool and scheduler; a failure is only a warning. */
  void stop(ProgressListener progress) {
    for (WebSocketClient c : clients) {
      try {
        c.stop();
      } catch (Exception e) {
        progress.progress("warning: WebSocket client did not stop cleanly: " + e);
      }
    }
    try {
      scheduler.stop();
      pool.stop();
    } catch (Exception e) {
      progress.progress("warning: WebSocket client threads did not stop cleanly: " + e);
    }
  }

  static String names(List<InetAddress> addresses) {
    List<String> out = new ArrayList<>();
    addresses.forEach(a -> out.add(a.getHostAddress()));
    return String.join(",", out);
  }
}
