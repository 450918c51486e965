package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.rig.internal.PidFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during {@code up}: the thread waiting for a relay that never becomes ready is interrupted.
 * The wait ends at once, the relay this test's rig started is stopped through the ownership check,
 * and the failure says what was interrupted rather than "did not become ready".
 */
class InterruptedUpIT {
  @TempDir Path dir;

  @Test
  void anInterruptDuringTheReadinessWaitStopsTheRelayAndSaysSo() throws Exception {
    Path state = dir.resolve("i");
    UpOptions o =
        Fakes.options(Fakes.profile("never", Fakes.freePort()), state)
            .withTimeouts(Duration.ofSeconds(60), Duration.ZERO, Duration.ofSeconds(2));
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread up =
        new Thread(
            () -> {
              try {
                Fakes.real().up(o).close();
              } catch (RigException e) {
                failure.set(e);
              }
            },
            "rig-up");
    up.start();
    long pid = awaitPidFile(state);
    // Taken while the relay runs: the JDK binds the handle to its start time, so the cleanup
    // below can only ever reach the relay this test started, never a later owner of the pid.
    ProcessHandle relay = ProcessHandle.of(pid).orElseThrow();
    try {
      Thread.sleep(500);
      assertThat(up.isAlive()).as("still waiting for readiness (60 s timeout)").isTrue();
      up.interrupt();
      up.join(15_000);
      assertThat(up.isAlive()).as("up returned after the interrupt").isFalse();
      assertThat(failure.get())
          .isInstanceOfSatisfying(
              RigException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(RigException.Kind.START_FAILED);
                assertThat(e.getMessage())
                    .startsWith("interrupted while waiting for readiness of fake;")
                    .contains("the relay was stopped (STOPPED)");
              });
      assertThat(relay.isAlive()).isFalse();
      assertThat(PidFile.in(state)).doesNotExist();
    } finally {
      relay.destroyForcibly();
    }
  }

  private static long awaitPidFile(Path state) throws Exception {
    Path pf = PidFile.in(state);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (Files.exists(pf)) {
        try {
          return PidFile.read(pf).pid();
        } catch (dev.ceiling.core.json.ReportFormatException e) {
          // Caught mid-write; read again.
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no pid file in " + state + " within 30 s");
  }
}
