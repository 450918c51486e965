package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every socket the relay's process tree listens on must be on loopback, not only the probed one:
 * the fake relay serves its health URL on 127.0.0.1 and, with {@code --also-listen HOST}, forks a
 * child that also listens on HOST, as a cluster worker or a debug port would.
 */
class LoopbackListenersIT {
  @TempDir Path dir;

  private static UpOptions alsoListening(String host, Path state) throws Exception {
    return Fakes.options(Fakes.profile("ready", Fakes.freePort()), state)
        .withExtraArgs(List.of("--also-listen", host));
  }

  @Test
  void aRelayWhoseChildListensOnEveryInterfaceIsStoppedAndRefusedNamingTheAddress()
      throws Exception {
    UpOptions o = alsoListening("0.0.0.0", dir.resolve("wild"));
    assertThatThrownBy(() -> Fakes.real().up(o))
        .isInstanceOfSatisfying(
            RigException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RigException.Kind.START_FAILED);
              assertThat(e.problems()).hasSize(1);
              assertThat(e.problems().get(0))
                  .matches("listens off loopback on 0\\.0\\.0\\.0:\\d+ \\(pid \\d+\\)");
              assertThat(e.getMessage()).contains("it has been stopped (STOPPED)");
              Matcher m = Pattern.compile("^relay fake \\(pid (\\d+)\\)").matcher(e.getMessage());
              assertThat(m.find()).as(e.getMessage()).isTrue();
              long relay = Long.parseLong(m.group(1));
              assertThat(Fakes.alive(relay)).isFalse();
              Matcher c = Pattern.compile("\\(pid (\\d+)\\)$").matcher(e.problems().get(0));
              assertThat(c.find()).isTrue();
              long child = Long.parseLong(c.group(1));
              assertThat(child)
                  .as("the listener is the child's, not the relay's")
                  .isNotEqualTo(relay);
              // The child exits once its parent is gone (it polls every 100 ms).
              ProcessHandle.of(child)
                  .ifPresent(
                      h -> h.onExit().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join());
            });
  }

  /** Partner: the same relay whose child listens on loopback starts. */
  @Test
  void aRelayWhoseChildListensOnLoopbackStarts() throws Exception {
    try (RigHandle h = Fakes.real().up(alsoListening("127.0.0.1", dir.resolve("lo")))) {
      assertThat(Fakes.alive(h.descriptor().relayPid())).isTrue();
    }
  }

  /**
   * Mutant: a check of the relay's own sockets only (what the probe sees) lets the child's wildcard
   * listener through, so the real check's refusal above comes from looking at the whole tree.
   */
  @Test
  void aCheckOfTheRelaysOwnSocketsOnlyMissesTheChild() throws Exception {
    try (RigHandle h =
        Fakes.checksTheRelaysOwnSocketsOnly().up(alsoListening("0.0.0.0", dir.resolve("mutant")))) {
      assertThat(Fakes.alive(h.descriptor().relayPid())).isTrue();
      assertThat(h.stop().outcome()).isEqualTo(DownResult.Outcome.STOPPED);
    }
  }
}
