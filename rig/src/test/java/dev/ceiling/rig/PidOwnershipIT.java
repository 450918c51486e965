package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.ProcessInspector;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rig must never signal a process it did not start. A real stranger ({@code sleep 300}) gets a
 * pid file with its pid but a different start instant or command line; down must leave it alive.
 * The same scenario run through a rig that skips the ownership check must kill it, which is what
 * shows the check, not luck, keeps the stranger alive.
 */
class PidOwnershipIT {
  private static final Duration STOP = Duration.ofSeconds(2);

  @TempDir Path dir;

  private static PidFile forged(Identity live, java.time.Instant start, List<String> command) {
    return new PidFile(
        1,
        "ceiling-rig-test",
        "fake",
        live.pid(),
        start,
        command,
        Map.of("port", 47999),
        "http://127.0.0.1:47999/health",
        "/dev/null");
  }

  /** Starts a stranger, forges a pid file for it, runs down; true if the stranger survived. */
  private boolean strangerSurvives(Lifecycle rig, Function<Identity, PidFile> forge)
      throws IOException {
    return survives(rig, forge, Map.of());
  }

  /**
   * Starts {@code sleep 300} with {@code env} added, writes the pid file {@code forge} makes for
   * it, runs down; true if the process survived.
   */
  private boolean survives(
      Lifecycle rig, Function<Identity, PidFile> forge, Map<String, String> env)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder("sleep", "300");
    pb.environment().remove(ProcessInspector.RIG_ID_VARIABLE);
    pb.environment().putAll(env);
    Process stranger = pb.start();
    try {
      Identity live = awaitIdentity(stranger.pid(), List.of("sleep", "300"));
      Path state = Files.createTempDirectory(dir, "state");
      forge.apply(live).write(PidFile.in(state));
      DownResult r = rig.down(state, STOP);
      boolean survived = stranger.isAlive();
      if (survived) {
        assertThat(r.outcome()).isEqualTo(DownResult.Outcome.STALE_NOT_OURS);
        assertThat(r.message()).contains("signalled nothing");
        assertThat(PidFile.in(state)).doesNotExist();
      }
      return survived;
    } finally {
      Fakes.kill(stranger.pid());
    }
  }

  private static Identity awaitIdentity(long pid, List<String> command) {
    for (int i = 0; i < 100; i++) {
      Identity id = ProcessInspector.identify(pid).orElseThrow();
      if (command.equals(id.command())) {
        return id;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new AssertionError("pid " + pid + " never showed " + command);
  }

  @Test
  void strangerWithDifferentStartInstantSurvivesDown() throws IOException {
    Function<Identity, PidFile> otherStart =
        live -> forged(live, live.startInstant().minusSeconds(3), live.command());
    assertThat(strangerSurvives(Fakes.real(), otherStart)).isTrue();
    // MUTANT: the same scenario through a rig that skips the check kills the stranger.
    assertThat(strangerSurvives(Fakes.skipsOwnershipCheck(), otherStart)).isFalse();
  }

  @Test
  void strangerWithDifferentCommandLineSurvivesDown() throws IOException {
    Function<Identity, PidFile> otherCommand =
        live ->
            forged(live, live.startInstant(), List.of("sleep", "300", "--rig-id", "ceiling-rig"));
    assertThat(strangerSurvives(Fakes.real(), otherCommand)).isTrue();
    assertThat(strangerSurvives(Fakes.skipsOwnershipCheck(), otherCommand)).isFalse();
  }

  @Test
  void aPidFileCopyingAStrangerExactlyStillSignalsNothing() throws IOException {
    // Pid, start instant and argv all copied from the stranger: everything a file can say. Only
    // the environment the rig sets at launch is missing, and that alone must keep it alive.
    Function<Identity, PidFile> exact = live -> forged(live, live.startInstant(), live.command());
    assertThat(strangerSurvives(Fakes.real(), exact)).isTrue();
    // MUTANT: a check that trusts pid, start instant and argv (it reads the rig id in the
    // environment as always present) signals the stranger.
    assertThat(strangerSurvives(Fakes.trustsArgv(), exact)).isFalse();
  }

  @Test
  void aProcessCarryingTheRigIdInItsEnvironmentIsStopped() throws IOException {
    // The positive partner: launched as the rig launches a relay (CEILING_RIG_ID in its
    // environment) and recorded exactly, so down does stop it. A check that refused everything
    // would pass the stranger tests and fail this one.
    Function<Identity, PidFile> exact = live -> forged(live, live.startInstant(), live.command());
    Map<String, String> rigEnv = Map.of(ProcessInspector.RIG_ID_VARIABLE, "ceiling-rig-test");
    assertThat(survives(Fakes.real(), exact, rigEnv)).isFalse();
    // ... and another rig's id in the environment is not this rig's relay.
    Map<String, String> otherRig = Map.of(ProcessInspector.RIG_ID_VARIABLE, "ceiling-rig-other");
    assertThat(survives(Fakes.real(), exact, otherRig)).isTrue();
  }

  @Test
  void deadPidIsReportedStaleAndRemoved() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path state = Files.createTempDirectory(dir, "state");
    new PidFile(
            1,
            "ceiling-rig-x",
            "fake",
            gone.pid(),
            java.time.Instant.now(),
            List.of("true"),
            Map.of(),
            "http://127.0.0.1:1/health",
            "/dev/null")
        .write(PidFile.in(state));
    assertThat(Rig.status(state).state()).isEqualTo(StatusResult.State.STALE);
    DownResult r = Rig.down(state, STOP);
    assertThat(r.outcome()).isEqualTo(DownResult.Outcome.STALE_DEAD);
    assertThat(r.pid()).isEqualTo(gone.pid());
    assertThat(r.message()).contains("is not running").contains("signalled nothing");
    assertThat(PidFile.in(state)).doesNotExist();
  }

  @Test
  void garbledPidFileWithoutADescriptorIsRefusedAndKept() throws IOException {
    Path state = Files.createTempDirectory(dir, "state");
    Files.writeString(PidFile.in(state), "{\"pid\": 1, oops");
    assertThat(Rig.status(state).state()).isEqualTo(StatusResult.State.GARBLED);
    DownResult r = Rig.down(state, STOP);
    // Nothing says which process was the relay: not clean (the CLI exits 3), nothing removed.
    assertThat(r.outcome()).isEqualTo(DownResult.Outcome.UNRESOLVED);
    assertThat(r.clean()).isFalse();
    assertThat(r.pid()).isNull();
    assertThat(r.message()).contains(PidFile.FILE_NAME).contains("signalled nothing");
    assertThat(PidFile.in(state)).hasContent("{\"pid\": 1, oops");
  }

  @Test
  void noPidFileSaysSo() {
    DownResult r = Rig.down(dir.resolve("empty"), STOP);
    assertThat(r.outcome()).isEqualTo(DownResult.Outcome.NO_PID_FILE);
    assertThat(r.message()).contains("no pid file");
    assertThat(r.clean()).isTrue();
    assertThat(Rig.status(dir.resolve("empty")).state()).isEqualTo(StatusResult.State.NONE);
  }
}
