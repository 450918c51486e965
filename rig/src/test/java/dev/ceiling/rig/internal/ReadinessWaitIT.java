package dev.ceiling.rig.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An interrupted wait for readiness ends at once, with an interrupt rather than a verdict. The
 * relay here is a loopback socket that accepts (through its backlog) and never answers, so every
 * probe blocks until its own timeout: the wait ends early only because of the interrupt.
 */
class ReadinessWaitIT {
  @Test
  void anInterruptEndsTheWaitWithin100Millis() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Probe probe =
          new Probe.HttpHealth(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/health"));
      AtomicReference<Object> result = new AtomicReference<>();
      CountDownLatch started = new CountDownLatch(1);
      Thread waiter =
          new Thread(
              () -> {
                started.countDown();
                try {
                  result.set(ReadinessWait.await(probe, Duration.ofSeconds(60), null));
                } catch (InterruptedException e) {
                  result.set(e);
                }
              },
              "readiness-waiter");
      waiter.start();
      assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
      // Let the first probe reach its blocking read.
      Thread.sleep(300);
      assertThat(waiter.isAlive()).as("still waiting before the interrupt").isTrue();
      long interruptedAt = System.nanoTime();
      waiter.interrupt();
      waiter.join(5_000);
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - interruptedAt);
      assertThat(waiter.isAlive()).as("returned within 5 s of the interrupt").isFalse();
      assertThat(result.get()).isInstanceOf(InterruptedException.class);
      assertThat(elapsedMillis).as("ms from interrupt to return").isLessThan(100);
    }
  }

  /** Partner: without an interrupt the same wait runs to its timeout and says so. */
  @Test
  void withoutAnInterruptTheWaitRunsToItsTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Probe probe =
          new Probe.HttpHealth(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/health"));
      long t0 = System.nanoTime();
      assertThat(ReadinessWait.await(probe, Duration.ofMillis(300), null))
          .isEqualTo(ReadinessWait.Outcome.TIMED_OUT);
      assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    }
  }
}
