package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.core.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (a real SIGINT to a real {@code ceiling sensitivity} child) once a first cell is in the
 * file: the process exits 130, sensitivity.json keeps every cell measured and says it was
 * interrupted, and the relay is stopped. The relay talks to its database through a proxy in the
 * command's own JVM, so a relay left behind would be a relay cut off from its database; the failing
 * partner is the command before its shutdown hook, which left the relay running.
 */
class SensitivityCtrlCIT {
  @TempDir Path dir;
  Child child;

  @AfterEach
  void cleanUp() throws Exception {
    if (child != null) {
      child.killIfAlive();
    }
    ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(dir.toString()))
        .forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void ctrlCKeepsTheMeasuredCellsExits130AndStopsTheRelay() throws Exception {
    Path out = dir.resolve("out");
    child =
        Child.start(
            dir,
            "sensitivity",
            List.of(
                "sensitivity",
                "--delays",
                "2,4",
                "--repeats",
                "3",
                "--duration",
                "1",
                "--rate",
                "45",
                "--param",
                "port=" + freePort(),
                "--param",
                "db_port=" + freePort(),
                "--param",
                "exchange_delay_ms=0",
                "--param",
                "queue_capacity=20",
                "--param",
                "calibration_runs=20",
                "--out",
                out.toString()));
    Path file = out.resolve("sensitivity.json");
    assertThat(child.awaitCondition(() -> cells(file) >= 1, Duration.ofMinutes(3)))
        .as("a first cell was written\n%s", child)
        .isTrue();
    child.interrupt();
    assertThat(child.await(Duration.ofSeconds(150))).as(child.toString()).isEqualTo(130);

    JsonNode tree = Json.mapper().readTree(Files.readString(file));
    assertThat(tree.get("complete").asBoolean()).as(child.toString()).isFalse();
    assertThat(tree.get("incomplete_reason").asText()).contains("interrupted");
    // Stopped after the running cell: at least the first, never all six.
    assertThat(tree.get("cells").size()).isBetween(1, 5);
    assertThat(child.out()).as(child.toString()).contains("file: ");
    List<String> left =
        ProcessHandle.allProcesses()
            .filter(ProcessHandle::isAlive)
            .map(p -> p.info().commandLine().orElse(""))
            .filter(c -> c.contains(out.toString()))
            .toList();
    assertThat(left).as("processes of this run still alive").isEmpty();
  }

  /** Cells in the file so far (it is replaced whole, atomically, after every cell). */
  private static int cells(Path file) {
    if (!Files.exists(file)) {
      return 0;
    }
    try {
      JsonNode cells = Json.mapper().readTree(Files.readString(file)).get("cells");
      return cells == null ? 0 : cells.size();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
