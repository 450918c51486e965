package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.cli.contract.ShortSweep;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweepContrast;
import java.io.IOException;
import java.io.UncheckedIOException;
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
class DelaySweepCtrlCIT {
  @TempDir Path dir;
  Child child;

  @AfterEach
  void cleanUp() throws Exception {
    Child.endAll(child, dir);
  }

  @Test
  void ctrlCKeepsTheMeasuredCellsExits130AndStopsTheRelay() throws Exception {
    Path out = dir.resolve("out");
    child =
        Child.start(
            dir,
            "sensitivity",
            ShortSweep.args(3, FreePorts.one(), FreePorts.one(), 20, "--out", out.toString()));
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
    List<String> left = alive(out);
    assertThat(left).as("processes of this run still alive").isEmpty();
  }

  /**
   * Two Ctrl-Cs of one {@code --contrast audit_exchanges=5} run (4 cells an arm).
   *
   * <p>First, while the contrast arm's relay starts (its journals directory is made just before):
   * the relay comes up into a sweep that has been asked to stop, so it measures nothing, writes its
   * file saying so and is stopped; exit 130. The failing partner is the sweep before this test,
   * whose contrast arm installed its Ctrl-C hook only once its relay was up: in a JVM already
   * shutting down that throws, the arm's relay was never stopped, and outlived the command.
   *
   * <p>Then {@code --resume}, which reads the complete base arm from its file and measures only the
   * contrast arm, is Ctrl-C'd once that arm has written a cell more: exit 130; the base arm's file
   * complete and not touched again; the contrast arm's file keeps its measured cells and says it
   * was interrupted; contrast.json holds both arms and makes no established comparison, naming the
   * interrupted arm; and neither arm's relay is left. The sweep's one hook reaches the contrast arm
   * by {@code DelaySweep.interrupt()}, which forwards to the running arm. The failing partner is
   * that forwarding removed: the contrast arm then measured all four of its cells after the signal
   * (the file read "complete": true) before the command exited 130. (The resume, rather than a
   * fresh run, reaches the contrast arm without measuring a base arm again.)
   */
  @Test
  void ctrlCWhileTheContrastArmsRelayStartsAndDuringTheContrastArmKeepsTheBaseArm()
      throws Exception {
    Path out = dir.resolve("contrast-run");
    int port = FreePorts.one();
    int dbPort = FreePorts.one();
    child = contrastRun(out, port, dbPort, "--out");
    Path base = out.resolve("sensitivity.json");
    Path contrast = out.resolve("contrast");
    Path arm = contrast.resolve("sensitivity.json");
    assertThat(
            child.awaitCondition(
                () -> Files.isDirectory(contrast.resolve("journals")), Duration.ofMinutes(4)))
        .as("the contrast arm began\n%s", child)
        .isTrue();
    child.interrupt();
    assertThat(child.await(Duration.ofSeconds(150))).as(child.toString()).isEqualTo(130);
    assertThat(alive(out)).as("relays of either arm still alive\n%s", child).isEmpty();

    assertThat(Json.mapper().readTree(Files.readString(base)).get("complete").asBoolean()).isTrue();
    JsonNode started = Json.mapper().readTree(Files.readString(arm));
    assertThat(started.get("complete").asBoolean()).as(child.toString()).isFalse();
    assertThat(started.get("incomplete_reason").asText()).contains("interrupted");
    // Asked to stop before its relay was ready: the arm measures no cell, or (on a machine fast
    // enough to start the relay before the signal lands) stops after the running one.
    int startedCells = started.get("cells").size();
    assertThat(startedCells).isLessThan(2);
    DelaySweepContrast first = Json.read(out.resolve("contrast.json"), DelaySweepContrast.class);
    assertThat(first.established()).as(first.answer()).isFalse();

    child = contrastRun(out, port, dbPort, "--resume");
    assertThat(child.awaitCondition(() -> cells(arm) > startedCells, Duration.ofMinutes(4)))
        .as("the resumed contrast arm wrote a cell\n%s", child)
        .isTrue();
    // The base arm was read, not measured: its file is as the first run left it.
    byte[] baseBefore = Files.readAllBytes(base);
    child.interrupt();
    assertThat(child.await(Duration.ofSeconds(150))).as(child.toString()).isEqualTo(130);

    assertThat(Files.readAllBytes(base)).as("the base arm's file, untouched").isEqualTo(baseBefore);
    JsonNode baseTree = Json.mapper().readTree(baseBefore);
    assertThat(baseTree.get("complete").asBoolean()).isTrue();
    assertThat(baseTree.get("cells").size()).isEqualTo(4);
    JsonNode armTree = Json.mapper().readTree(Files.readString(arm));
    assertThat(armTree.get("complete").asBoolean()).as(child.toString()).isFalse();
    assertThat(armTree.get("incomplete_reason").asText()).contains("interrupted");
    assertThat(armTree.get("cells").size()).isBetween(startedCells + 1, 3);
    assertThat(armTree.get("rig").get("relay_info").get("parameter.audit_exchanges").asText())
        .isEqualTo("5");
    DelaySweepContrast c = Json.read(out.resolve("contrast.json"), DelaySweepContrast.class);
    assertThat(c.base()).isNotNull();
    assertThat(c.contrast()).isNotNull();
    assertThat(c.contrast().cells()).hasSize(armTree.get("cells").size());
    System.out.println("DelaySweepCtrlCIT: " + c.answer());
    assertThat(c.established()).as(c.answer()).isFalse();
    assertThat(c.answer()).contains("partial: the contrast arm stopped after", "interrupted");
    assertThat(child.out())
        .as(child.toString())
        .contains("contrast: " + out.resolve("contrast.json"));
    assertThat(alive(out)).as("relays of either arm still alive").isEmpty();
  }

  /**
   * {@code ceiling sensitivity --contrast audit_exchanges=5} on a short plan: 4 cells per arm; a
   * fixed seed, so that a resume has the run's plan. {@code how} is --out or --resume.
   */
  private Child contrastRun(Path out, int port, int dbPort, String how) throws IOException {
    return Child.start(
        dir,
        out.getFileName().toString() + how,
        ShortSweep.args(
            2,
            port,
            dbPort,
            20,
            "--contrast",
            "audit_exchanges=5",
            "--seed",
            "5",
            how,
            out.toString()));
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

  /** The live processes whose command line names {@code dir}: a relay or proxy this run left. */
  private static List<String> alive(Path dir) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .map(p -> p.info().commandLine().orElse(""))
        .filter(c -> c.contains(dir.toString()))
        .toList();
  }
}
