package dev.ceiling.rig.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The proxy's link health with real sockets: a target that refuses, one that drops a connection,
 * one that never answers, each against a partner that behaves. Only counts are asserted; the waits
 * are polls bounded by generous deadlines, so a busy machine makes them slower, never wrong.
 */
class LinkWatchIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @Test
  void everyConnectionToATargetThatRefusesIsCounted() throws Exception {
    InetSocketAddress closed = closedPort();
    try (DelayProxy proxy = DelayProxy.start(closed, Duration.ZERO)) {
      LinkWatch watch = proxy.watch();
      for (int i = 0; i < 5; i++) {
        try (Socket s = connect(proxy)) {
          assertThat(s.getInputStream().read())
              .as("the proxy closes the relay's side")
              .isEqualTo(-1);
        }
      }
      LinkWatch.Reading r = until(watch, x -> x.refused() == 5);
      assertThat(r.opened()).isEqualTo(5);
      assertThat(r.refused()).isEqualTo(5);
      assertThat(r.failed()).isTrue();
      assertThat(r.firstFailureAfter()).isNotNull();
    }
  }

  @Test
  void partnerATargetThatAnswersIsHealthy() throws Exception {
    try (EchoServer echo = new EchoServer();
        DelayProxy proxy = DelayProxy.start(echo.address(), Duration.ZERO)) {
      LinkWatch watch = proxy.watch();
      for (int i = 0; i < 5; i++) {
        try (Socket s = connect(proxy)) {
          exchange(s);
        }
      }
      LinkWatch.Reading r = until(watch, x -> x.opened() == 5);
      assertThat(r.refused()).isZero();
      assertThat(r.resets()).as("the relay closed each connection itself").isZero();
      assertThat(r.stalls()).isZero();
      assertThat(r.failed()).isFalse();
      assertThat(r.firstFailureAfter()).isNull();
    }
  }

  @Test
  void aTargetThatResetsAnIdleConnectionIsCountedOnce() throws Exception {
    try (Target t = new Target(Target.Behaviour.RESET_AFTER_ANSWER);
        DelayProxy proxy = DelayProxy.start(t.address(), Duration.ZERO);
        Socket s = connect(proxy)) {
      LinkWatch watch = proxy.watch();
      exchange(s);
      assertThat(s.getInputStream().read()).as("the drop reaches the relay").isEqualTo(-1);
      LinkWatch.Reading r = until(watch, x -> x.resets() == 1);
      assertThat(r.resets()).isEqualTo(1);
      assertThat(r.stalls()).isZero();
      assertThat(r.failed()).isTrue();
    }
  }

  @Test
  void partnerATargetClosingInAnswerToARequestIsNoReset() throws Exception {
    // PostgreSQL's Terminate gets no reply but the close: the protocol's goodbye, not a failure.
    try (Target t = new Target(Target.Behaviour.CLOSE_ON_REQUEST);
        DelayProxy proxy = DelayProxy.start(t.address(), Duration.ZERO);
        Socket s = connect(proxy)) {
      LinkWatch watch = proxy.watch();
      s.getOutputStream().write('X');
      s.getOutputStream().flush();
      assertThat(s.getInputStream().read()).isEqualTo(-1);
      assertThat(t.served(1)).isTrue();
      LinkWatch.Reading r = watch.end();
      assertThat(r.resets()).isZero();
      assertThat(r.failed()).isFalse();
    }
  }

  @Test
  void aRequestLeftUnansweredPastTheBoundIsAStallWithItsWait() throws Exception {
    try (Target t = new Target(Target.Behaviour.SILENT);
        DelayProxy proxy = DelayProxy.start(t.address(), Duration.ZERO);
        Socket s = connect(proxy)) {
      LinkWatch watch = proxy.watch();
      s.getOutputStream().write(new byte[] {1, 2, 3});
      s.getOutputStream().flush();
      LinkWatch.Reading r = until(watch, x -> x.stalls() == 1);
      assertThat(r.stalls()).isEqualTo(1);
      assertThat(r.longestNoReply()).isGreaterThan(DelayProxy.STALL_BOUND);
      // Still one stall however long it lasts: the wait grows, the count does not.
      LinkWatch.Reading later =
          until(watch, x -> x.longestNoReply().compareTo(r.longestNoReply()) > 0);
      assertThat(later.stalls()).isEqualTo(1);
      assertThat(later.refused()).isZero();
      assertThat(later.resets()).isZero();
    }
  }

  @Test
  void partnerARequestAnsweredWithinTheBoundIsNoStall() throws Exception {
    try (EchoServer echo = new EchoServer();
        DelayProxy proxy = DelayProxy.start(echo.address(), Duration.ofMillis(50));
        Socket s = connect(proxy)) {
      LinkWatch watch = proxy.watch();
      for (int i = 0; i < 20; i++) {
        exchange(s);
      }
      // The checker has run many times by now (every 100 ms over at least 20 x 50 ms).
      Thread.sleep(DelayProxy.STALL_CHECK_EVERY.toMillis() * 3);
      LinkWatch.Reading r = watch.end();
      assertThat(r.stalls()).isZero();
      assertThat(r.failed()).isFalse();
    }
  }

  @Test
  void aWatchCountsOnlyWhatHappensWhileItRuns() throws Exception {
    InetSocketAddress closed = closedPort();
    try (DelayProxy proxy = DelayProxy.start(closed, Duration.ZERO)) {
      LinkWatch before = proxy.watch();
      try (Socket s = connect(proxy)) {
        assertThat(s.getInputStream().read()).isEqualTo(-1);
      }
      until(before, x -> x.refused() == 1);
      LinkWatch.Reading ended = before.end();
      LinkWatch after = proxy.watch();
      try (Socket s = connect(proxy)) {
        assertThat(s.getInputStream().read()).isEqualTo(-1);
      }
      until(after, x -> x.refused() == 1);
      assertThat(before.end()).as("an ended watch keeps its reading").isEqualTo(ended);
      assertThat(ended.refused()).isEqualTo(1);
    }
  }

  private static Socket connect(DelayProxy proxy) throws IOException {
    Socket s = new Socket();
    s.connect(proxy.address(), 10_000);
    s.setSoTimeout((int) DEADLINE.toMillis());
    return s;
  }

  private static void exchange(Socket s) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(42);
    out.flush();
    assertThat(s.getInputStream().read()).isEqualTo(42);
  }

  /** A loopback port nothing listens on: bound, then closed, so a connect is refused at once. */
  private static InetSocketAddress closedPort() throws IOException {
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), ss.getLocalPort());
    }
  }

  private static LinkWatch.Reading until(LinkWatch watch, Predicate<LinkWatch.Reading> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    LinkWatch.Reading r = watch.reading();
    while (!condition.test(r) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      r = watch.reading();
    }
    assertThat(condition.test(r)).as("reached within %s: %s", DEADLINE, r).isTrue();
    return r;
  }

  /** A blocking target on 127.0.0.1 with one behaviour for every connection. */
  private static final class Target implements AutoCloseable {
    enum Behaviour {
      /** Reads requests, never answers. */
      SILENT,
      /** Echoes one byte, then resets the connection (SO_LINGER 0). */
      RESET_AFTER_ANSWER,
      /** Reads one byte and closes, answering nothing. */
      CLOSE_ON_REQUEST
    }

    private final ServerSocket server;
    private final Thread thread;
    private final List<Socket> held = new ArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger served =
        new java.util.concurrent.atomic.AtomicInteger();

    Target(Behaviour b) throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      thread = new Thread(() -> serve(b), "link-watch-target");
      thread.setDaemon(true);
      thread.start();
    }

    InetSocketAddress address() {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    boolean served(int n) throws InterruptedException {
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (served.get() < n && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      return served.get() >= n;
    }

    private void serve(Behaviour b) {
      try {
        while (!server.isClosed()) {
          Socket s = server.accept();
          s.setSoTimeout((int) DEADLINE.toMillis());
          InputStream in = s.getInputStream();
          switch (b) {
            case SILENT -> held.add(s);
            case RESET_AFTER_ANSWER -> {
              s.getOutputStream().write(in.read());
              s.getOutputStream().flush();
              s.setSoLinger(true, 0);
              s.close();
            }
            case CLOSE_ON_REQUEST -> {
              int unused = in.read();
              s.close();
            }
          }
          served.incrementAndGet();
        }
      } catch (SocketTimeoutException e) {
        // the test is over
      } catch (IOException e) {
        // closed by close()
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
      for (Socket s : held) {
        s.close();
      }
    }
  }
}
