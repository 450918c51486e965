package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.generator.testing.TestRelay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code ceiling generate} child, signalled mid-run: SIGTERM exits 130 like SIGINT (the
 * JVM's own code would be 143, which is what this test saw before), saying on stderr that no report
 * was written. The partner is SIGINT, whose 130 the JVM gave already: both must agree.
 */
class GenerateSignalIT {
  @TempDir Path dir;
  Child child;

  @AfterEach
  void cleanUp() throws Exception {
    if (child != null) {
      child.killIfAlive();
    }
  }

  private int signalled(String name, boolean term) throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      child =
          Child.start(
              dir,
              name,
              List.of(
                  "generate",
                  "--duration",
                  "120s",
                  "--json",
                  dir.resolve(name + ".json").toString(),
                  "--target",
                  "url=" + relay.url() + ",rate=20"));
      assertThat(
              child.awaitCondition(
                  () -> {
                    try {
                      return child.err().contains("clock starts at");
                    } catch (java.io.IOException e) {
                      return false;
                    }
                  },
                  Duration.ofMinutes(2)))
          .as("the run's clock started\n%s", child)
          .isTrue();
      if (term) {
        child.terminate();
      } else {
        child.interrupt();
      }
      int code = child.await(Duration.ofMinutes(1));
      assertThat(child.err()).contains("generate: interrupted; no report written");
      assertThat(dir.resolve(name + ".json")).doesNotExist();
      return code;
    }
  }

  @Test
  void sigtermExits130LikeCtrlC() throws Exception {
    assertThat(signalled("term", true)).as(child.toString()).isEqualTo(130);
    assertThat(signalled("int", false)).as(child.toString()).isEqualTo(130);
  }
}
