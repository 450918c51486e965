package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.core.net.LoopbackAddress;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.ProgressListener;
import java.net.InetAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.eclipse.jetty.websocket.common.WebSocketSession;

/**
 * Configures the WebSocket clients and opens every connection before the clock, or fails the run.
 */
final class Connector {
  static final int OUTPUT_BUFFER_BYTES = 64 * 1024;
  static final int INPUT_BUFFER_BYTES = 1024;

  private Connector() {}

  /**
   * Sets a client (not yet started) up for the run: an idle timeout that outlasts it (including up
   * to {@code beforeClock} between the warm-up ping and the clock), buffers.
   */
  static void configure(WebSocketClient client, GeneratorConfig cfg, Duration beforeClock) {
    client.setMaxTextMessageSize(cfg.maxFrameBytes());
    client.setIdleTimeout(
        cfg.duration()
            .plus(cfg.gracePeriod())
            .plus(Engine.lateSendSlack(cfg.duration()))
            .plus(cfg.warmup())
            .plus(beforeClock)
            .plusSeconds(60));
    client.setConnectTimeout(cfg.connectTimeout().toMillis());
    client.setStopTimeout(1000);
    // Jetty batches a frame only when it is under a quarter of the output buffer; 64 KiB lets a
    // pass put every due frame of a connection (up to 16 KiB each) into one write.
    client.setOutputBufferSize(OUTPUT_BUFFER_BYTES);
    // Jetty starts every text message's decoder at the input buffer's size: at the default 4 KiB
    // that was 80 MB/s of garbage at 20,000 OKs/s, and young-collection pauses on the clock. An OK
    // is under 200 bytes; 1 KiB still reads about ten of them per read, and longer frames grow
    // the decoder as they need.
    client.setInputBufferSize(INPUT_BUFFER_BYTES);
  }

  /**
   * {@code written} with a loopback name ({@code localhost}, {@code a.localhost}) replaced by the
   * address it connects to, chosen without a lookup ({@link LoopbackAddress}) and said in a
   * progress line; {@code written} itself for an address or a remote name.
   */
  static URI pin(URI written, ProgressListener progress) {
    if (!Loopback.isLoopbackName(written.getHost())) {
      return written;
    }
    int port = LoopbackAddress.port(written);
    LoopbackAddress.Choice c =
        LoopbackAddress.choose(written.getHost(), port, LoopbackAddress.TRIAL);
    progress.progress(c.describe(port));
    return LoopbackAddress.withHost(written, c.urlHost());
  }

  /** Upgrades every connection, all in parallel; any failure fails the run, naming each one. */
  static void connectAll(
      WsClients clients, List<Conn> all, Duration timeout, ProgressListener progress)
      throws GeneratorException {
    progress.progress("connecting " + all.size() + " connections");
    List<CompletableFuture<Session>> futures = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Map<String, URI> pinned = new HashMap<>();
    for (int k = 0; k < all.size(); k++) {
      Conn c = all.get(k);
      URI written = URI.create(c.target.load.target().url());
      URI uri = pinned.computeIfAbsent(written.toString(), u -> pin(written, progress));
      ClientUpgradeRequest req = new ClientUpgradeRequest(uri);
      String host = c.target.load.target().hostHeader();
      if (host == null && Loopback.isLoopbackName(written.getHost())) {
        // The relay still sees the name the user wrote: it may serve communities by Host.
        host = LoopbackAddress.hostHeader(written);
      }
      if (host != null) {
        req.setHeader("Host", host);
      }
      try {
        futures.add(clients.forConnection(k).connect(c, req));
      } catch (java.io.IOException | RuntimeException e) {
        futures.add(CompletableFuture.failedFuture(e));
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < all.size(); i++) {
      Conn c = all.get(i);
      InetAddress source = clients.sourceOf(i);
      String who = c.describe() + (source == null ? "" : " from " + source.getHostAddress());
      try {
        long left = Math.max(1, deadline - System.nanoTime());
        c.session = futures.get(i).get(left, TimeUnit.NANOSECONDS);
        if (c.core == null && c.session instanceof WebSocketSession w) {
          c.core = w.getCoreSession();
        }
        if (c.core == null) {
          failures.add(who + ": Jetty session has no core session to batch frames on");
        }
      } catch (TimeoutException e) {
        failures.add(who + ": no upgrade within " + timeout.toMillis() + " ms");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        failures.add(who + ": " + cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE, "interrupted while connecting", e);
      }
    }
    if (!failures.isEmpty()) {
      for (CompletableFuture<Session> f : futures) {
        f.cancel(true);
      }
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "connect failed before the clock started ("
              + failures.size()
              + " of "
              + all.size()
              + "): "
              + String.join("; ", failures.subList(0, Math.min(5, failures.size())))
              + (failures.size() > 5 ? "; ..." : ""));
    }
  }

  /**
   * Pings every connection once and waits for the writes: the first frame through a session loads
   * and links Jetty's send path, which on a cold JVM costs tens of ms and would land on slot 0.
   */
  static void warmUp(List<Conn> all) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (Conn c : all) {
      CompletableFuture<Void> f = new CompletableFuture<>();
      c.session.sendPing(
          ByteBuffer.wrap(new byte[] {1}),
          Callback.from(() -> f.complete(null), f::completeExceptionally));
      done.add(f);
    }
    try {
      CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get(2, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // A connection that cannot take a ping will show up as a write error during the run.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // Load HdrHistogram's recording path and the wait loop before slot 0, for the same reason.
    LatencySummary.newHistogram().recordValue(1);
    PacedWait.until(System.nanoTime() + 1_000);
  }

  /** Closes every connection we opened and stops the clients; a failure is only a warning. */
  static void closeAll(WsClients clients, List<Conn> all, ProgressListener progress) {
    for (Conn c : all) {
      c.closingByUs = true;
      Session s = c.session;
      if (s != null && s.isOpen()) {
        s.close(1000, "generator done", Callback.NOOP);
      }
    }
    clients.stop(progress);
  }
}
