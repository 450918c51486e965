package dev.ceiling.rig.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each case of {@link Occupant}, from fake state directories. The live process is a child this test
 * starts as the rig starts a relay (rig id on its command line and in its environment); it is never
 * signalled by the code under test (classification only reads), and every "ours" case has a partner
 * whose one wrong field must make it not ours.
 */
class OccupantsTest {
  private static final long NO_SUCH_PID = 4_999_999L;

  @TempDir Path dir;

  private final Occupants strict = new Occupants(Ownership.STRICT);

  private static final String RIG_ID = "ceiling-rig-test";

  /**
   * The system python when there is one: a version-manager shim (pyenv) re-execs, so the argv would
   * change under the test.
   */
  private static final String PYTHON =
      Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";

  private Process relay;

  /** A stand-in relay: python sleeping, the rig id as its last argument and in its environment. */
  private ProcessInspector.Identity self() throws IOException {
    ProcessBuilder pb = new ProcessBuilder(PYTHON, "-c", "import time; time.sleep(300)", RIG_ID);
    pb.environment().put(ProcessInspector.RIG_ID_VARIABLE, RIG_ID);
    relay = pb.start();
    return awaitArgs(relay.pid());
  }

  private static ProcessInspector.Identity awaitArgs(long pid) {
    for (int i = 0; i < 500; i++) {
      ProcessInspector.Identity id = ProcessInspector.identify(pid).orElseThrow();
      if (id.command() != null
          && id.command().contains(RIG_ID)
          && id.command().get(0).contains("python")
          && !id.command().get(0).contains("shims")) {
        return id;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new AssertionError("pid " + pid + " never showed its arguments");
  }

  @AfterEach
  void stopRelay() {
    if (relay != null) {
      relay.destroyForcibly();
      relay.onExit().join();
    }
  }

  private void pidFile(long pid, Instant start, List<String> command) throws IOException {
    new PidFile(
            1, RIG_ID, "fake", pid, start, command, Map.of("port", 1), "tcp://127.0.0.1:1", "log")
        .write(PidFile.in(dir));
  }

  @Test
  void anEmptyDirectoryHoldsNone() {
    assertThat(strict.look(dir)).isInstanceOf(Occupant.None.class);
  }

  @Test
  void thisJvmRecordedExactlyIsOurs() throws IOException {
    ProcessInspector.Identity me = self();
    pidFile(me.pid(), me.startInstant(), me.command());
    Occupant o = strict.look(dir);
    assertThat(o).isInstanceOf(Occupant.Ours.class);
    assertThat(((Occupant.Ours) o).handle().pid()).isEqualTo(me.pid());
  }

  /** Partner of the case above; a mutant that compares only the pid would call it ours. */
  @Test
  void aStartInstantThatDiffersIsStaleNotOurs() throws IOException {
    ProcessInspector.Identity me = self();
    pidFile(me.pid(), me.startInstant().plusSeconds(1), me.command());
    Occupant o = strict.look(dir);
    assertThat(o).isInstanceOf(Occupant.Stale.class);
    assertThat(((Occupant.Stale) o).alive()).isTrue();
    assertThat(((Occupant.Stale) o).why()).startsWith("start instant differs");
  }

  /** Partner: pid, start and argv copied exactly, but another rig's id in the environment. */
  @Test
  void anEnvironmentWithoutThisRigIdIsStaleNotOurs() throws IOException {
    ProcessBuilder pb = new ProcessBuilder(PYTHON, "-c", "import time; time.sleep(300)", RIG_ID);
    pb.environment().put(ProcessInspector.RIG_ID_VARIABLE, "ceiling-rig-other");
    relay = pb.start();
    ProcessInspector.Identity other = awaitArgs(relay.pid());
    pidFile(other.pid(), other.startInstant(), other.command());
    Occupant o = strict.look(dir);
    assertThat(o).isInstanceOf(Occupant.Stale.class);
    assertThat(((Occupant.Stale) o).why())
        .isEqualTo(
            "its environment does not carry CEILING_RIG_ID=ceiling-rig-test"
                + " (it has ceiling-rig-other)");
  }

  /** Partner: a mutant that compares pid and start instant only would call it ours. */
  @Test
  void aCommandLineThatDiffersIsStaleNotOurs() throws IOException {
    ProcessInspector.Identity me = self();
    pidFile(me.pid(), me.startInstant(), List.of("java", "-jar", "someone-else.jar"));
    Occupant o = strict.look(dir);
    assertThat(o).isInstanceOf(Occupant.Stale.class);
    assertThat(((Occupant.Stale) o).why()).startsWith("command line differs");
  }

  @Test
  void aPidThatDoesNotRunIsStaleAndDead() throws IOException {
    pidFile(NO_SUCH_PID, Instant.parse("2026-01-01T00:00:00Z"), List.of("relay"));
    Occupant o = strict.look(dir);
    assertThat(o).isInstanceOf(Occupant.Stale.class);
    assertThat(((Occupant.Stale) o).alive()).isFalse();
    assertThat(((Occupant.Stale) o).why()).isEqualTo("pid " + NO_SUCH_PID + " is not running");
  }

  @Test
  void anUnreadablePidFileWithoutDescriptorIsGarbledAndNamesNothing() throws IOException {
    Files.writeString(PidFile.in(dir), "{not json");
    Occupant o = strict.look(dir);
    assertThat(o).isInstanceOf(Occupant.Garbled.class);
    Occupant.Garbled g = (Occupant.Garbled) o;
    assertThat(g.named()).isEmpty();
    assertThat(g.ours()).isEmpty();
  }

  /**
   * The descriptor names the stand-in relay, which carries the rig id on its command line and in
   * its environment, so the garbled record's relay is ours.
   */
  @Test
  void aGarbledPidFileWhoseDescriptorNamesALiveMatchIsOurs() throws IOException {
    ProcessInspector.Identity me = self();
    Files.writeString(PidFile.in(dir), "{not json");
    descriptor(RIG_ID, me.pid(), me.startInstant(), me.command());
    Occupant.Garbled g = (Occupant.Garbled) strict.look(dir);
    assertThat(g.ours()).isPresent();
    assertThat(g.notOurs()).isEmpty();
  }

  /** Partner: the same, but the start instant is off by a second; not ours. */
  @Test
  void aGarbledPidFileWhoseDescriptorMismatchesIsNotOurs() throws IOException {
    ProcessInspector.Identity me = self();
    Files.writeString(PidFile.in(dir), "{not json");
    descriptor(RIG_ID, me.pid(), me.startInstant().plusSeconds(1), me.command());
    Occupant.Garbled g = (Occupant.Garbled) strict.look(dir);
    assertThat(g.named()).isPresent();
    assertThat(g.ours()).isEmpty();
    assertThat(g.notOurs()).hasValueSatisfying(w -> assertThat(w).startsWith("start instant"));
  }

  /** Partner: everything matches but the relay carries another rig id. */
  @Test
  void aGarbledPidFileWhoseRelayLacksTheRigIdIsNotOurs() throws IOException {
    ProcessInspector.Identity me = self();
    Files.writeString(PidFile.in(dir), "{not json");
    descriptor("ceiling-rig-elsewhere", me.pid(), me.startInstant(), me.command());
    Occupant.Garbled g = (Occupant.Garbled) strict.look(dir);
    assertThat(g.ours()).isEmpty();
    assertThat(g.notOurs())
        .hasValue(
            "its environment does not carry CEILING_RIG_ID=ceiling-rig-elsewhere"
                + " (it has ceiling-rig-test)");
  }

  @Test
  void noPidFileAndAnAttachedDescriptorIsAttached() throws IOException {
    descriptor("ceiling-rig-attached", null, null, null);
    assertThat(strict.look(dir)).isInstanceOf(Occupant.Attached.class);
  }

  /** Partner: a descriptor of a relay the rig started, without its pid file, is not "attached". */
  @Test
  void noPidFileAndAnOwnedDescriptorIsNone() throws IOException {
    ProcessInspector.Identity me = self();
    descriptor("ceiling-rig-owned", me.pid(), me.startInstant(), me.command());
    assertThat(strict.look(dir)).isInstanceOf(Occupant.None.class);
  }

  private void descriptor(String rigId, Long pid, Instant start, List<String> command)
      throws IOException {
    String json =
        """
        {
          "schema_version" : 2, "rig_id" : %s, "profile" : "fake", "arm" : "on",
          "relay_pid" : %s, "relay_start_instant" : %s, "relay_command" : %s,
          "relay_log" : %s, "health_url" : "http://127.0.0.1:7777/health",
          "metrics_url" : null, "contamination_evidence" : "client",
          "targets" : [ { "community" : "a", "url" : "ws://127.0.0.1:7777", "host_header" : null,
            "tags" : [ ], "kind" : 1, "content_bytes" : 0 } ],
          "limiter_settings" : { }, "queue_capacity" : null, "database_reset" : false,
          "metric_mapping" : { }, "positive_controlled" : [ ], "relay_info" : { },
          "relay_source_revision" : null, "relay_source_diff_digest" : null,
          "relay_binary_digest" : null, "generator_version" : "test", "generator_jar_digest" : null
        }
        """
            .formatted(
                Json.write(rigId),
                pid == null ? "null" : pid.toString(),
                start == null ? "null" : Json.write(start.toString()),
                command == null ? "null" : Json.write(command),
                pid == null ? "null" : "\"/tmp/relay.log\"");
    Files.writeString(dir.resolve(StateDirectory.DESCRIPTOR_FILE), json);
  }
}
