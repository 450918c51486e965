package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The hook's order on a signal: ask the run to stop, wait for it (or the grace), clean up. Run on a
 * plain thread: a real JVM shutdown is CtrlCIT's (cli).
 */
class ShutdownHookTest {
  final List<String> events = new CopyOnWriteArrayList<>();

  private ShutdownHook hook(Duration grace) {
    return new ShutdownHook(
        "test-hook", () -> events.add("stop asked"), grace, () -> events.add("cleaned up"));
  }

  @Test
  void aSignalAsksTheRunToStopWaitsForItToFinishThenCleansUp() throws Exception {
    ShutdownHook h = hook(Duration.ofSeconds(30));
    Thread signal = new Thread(h::onShutdown);
    long start = System.nanoTime();
    signal.start();
    while (events.isEmpty()) {
      Thread.sleep(5);
    }
    Thread.sleep(200);
    // Still held: the run has not finished.
    assertThat(events).containsExactly("stop asked");
    events.add("run finished");
    h.close();
    signal.join(5_000);

    assertThat(events).containsExactly("stop asked", "run finished", "cleaned up");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aRunThatDoesNotFinishIsCleanedUpAfterTheGrace() throws Exception {
    ShutdownHook h = hook(Duration.ofMillis(300));
    long start = System.nanoTime();
    h.onShutdown();

    assertThat(events).containsExactly("stop asked", "cleaned up");
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(300));
  }

  @Test
  void aFinishedRunIsNotWaitedFor() {
    ShutdownHook h = hook(Duration.ofSeconds(60));
    h.close();
    long start = System.nanoTime();
    h.onShutdown();

    assertThat(events).containsExactly("stop asked", "cleaned up");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void anInstalledHookIsRemovedOnClose() {
    ShutdownHook h =
        ShutdownHook.install(
            "test-installed", () -> events.add("stop asked"), Duration.ofSeconds(1), () -> {});
    h.close();
    h.close();

    // Removed: the JVM's own exit after this test runs nothing of it.
    assertThat(events).isEmpty();
  }
}
