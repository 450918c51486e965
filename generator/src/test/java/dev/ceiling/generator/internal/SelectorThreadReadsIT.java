package dev.ceiling.generator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Target;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.generator.testing.TestRelay;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.Test;

/**
 * The generator's client reads every frame on Jetty's selector thread (Jetty counts such reads as
 * "produce-consume" tasks), never handing a read to another thread: the hand-off was most of the
 * receive path's CPU at high rates (docs/PERFORMANCE.md).
 */
class SelectorThreadReadsIT {
  /** Events sent one at a time, each answered before the next, so each OK is its own read. */
  private static final int FRAMES = 50;

  /**
   * Reads while FRAMES events were answered: {selector ran it itself, handed to another thread}.
   * Not every OK needs a selector task (Jetty's read loop may find the next one already there).
   */
  static long[] readsOnTheSelectorThread(WebSocketClient client, String url) throws Exception {
    Answers listener = new Answers();
    LinkedBlockingQueue<String> answers = listener.answers;
    Session s = client.connect(listener, URI.create(url)).get(30, TimeUnit.SECONDS);
    long[] before = tasks(client);
    for (int i = 0; i < FRAMES; i++) {
      s.sendText("[\"EVENT\",{\"id\":\"e" + i + "\"}]", Callback.NOOP);
      // Generous: a busy machine may take long; only the count below is the test.
      assertThat(answers.poll(30, TimeUnit.SECONDS)).as("answer %d", i).contains("\"e" + i + "\"");
    }
    long[] after = tasks(client);
    s.close();
    return new long[] {after[0] - before[0], after[1] - before[1]};
  }

  /** Public: Jetty calls its methods reflectively. */
  public static final class Answers implements Session.Listener.AutoDemanding {
    final LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();

    @Override
    public void onWebSocketText(String message) {
      answers.add(message);
    }
  }

  /** Selector tasks so far: {run by the selector thread, handed to or run by another thread}. */
  private static long[] tasks(WebSocketClient client) {
    long own = 0;
    long handedOff = 0;
    for (AdaptiveExecutionStrategy s :
        client.getHttpClient().getContainedBeans(AdaptiveExecutionStrategy.class)) {
      own += s.getPCTasksConsumed();
      handedOff += s.getEPCTasksConsumed() + s.getPECTasksExecuted() + s.getPICTasksExecuted();
    }
    return new long[] {own, handedOff};
  }

  static void assertEveryReadOnTheSelector(long[] reads) {
    assertThat(reads[1]).as("reads handed to another thread").isZero();
    assertThat(reads[0]).as("reads the selector ran itself").isGreaterThanOrEqualTo(FRAMES / 2);
  }

  @Test
  void theGeneratorsClientReadsEveryFrameOnTheSelectorThread() throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      GeneratorConfig cfg =
          GeneratorConfig.builder()
              .load(
                  new TargetLoad(
                      new Target("a", relay.url(), null, List.of(List.of("h", "t")), 1, 64),
                      10,
                      1,
                      1))
              .duration(Duration.ofSeconds(1))
              .build();
      WsClients clients = WsClients.start(cfg);
      try {
        long[] reads = readsOnTheSelectorThread(clients.forConnection(0), relay.url());
        System.out.println("selector reads: own " + reads[0] + ", handed off " + reads[1]);
        assertEveryReadOnTheSelector(reads);
      } finally {
        clients.stop(line -> {});
      }
    }
  }

  @Test
  void jettysDefaultClientHandsReadsToAnotherThreadAndFails() throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      WebSocketClient plain = new WebSocketClient();
      plain.start();
      try {
        long[] reads = readsOnTheSelectorThread(plain, relay.url());
        System.out.println("plain client reads: own " + reads[0] + ", handed off " + reads[1]);
        assertThatThrownBy(() -> assertEveryReadOnTheSelector(reads))
            .isInstanceOf(AssertionError.class);
      } finally {
        plain.stop();
      }
    }
  }
}
