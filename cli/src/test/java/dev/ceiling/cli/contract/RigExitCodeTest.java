package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rig status} exits per state (it used to exit 0 always), and {@code rig down} on a garbled
 * pid file with nothing to find the relay by exits 3 keeping the file (it used to exit 0 and delete
 * it). The running, healthy case (exit 0) is LauncherIT's.
 */
class RigExitCodeTest {
  @TempDir Path dir;

  @Test
  void statusOfNothingIsOneAndOfAGarbledPidFileIsThree() throws Exception {
    Path none = dir.resolve("none");
    Cli.Outcome empty = Cli.run("rig", "status", "--state-dir", none.toString());
    assertThat(empty.code()).as(empty.toString()).isEqualTo(1);
    assertThat(empty.out()).startsWith("NONE: ");

    Path garbled = Files.createDirectories(dir.resolve("garbled"));
    Files.writeString(garbled.resolve("relay.pid.json"), "{\"pid\": 12, torn");
    Cli.Outcome status = Cli.run("rig", "status", "--state-dir", garbled.toString());
    assertThat(status.code()).as(status.toString()).isEqualTo(3);
    assertThat(status.out()).startsWith("GARBLED: ");

    Cli.Outcome down = Cli.run("rig", "down", "--state-dir", garbled.toString());
    assertThat(down.code()).as(down.toString()).isEqualTo(3);
    assertThat(down.out()).contains("kept every file");
    assertThat(garbled.resolve("relay.pid.json")).hasContent("{\"pid\": 12, torn");
  }

  /**
   * {@code rig up} over the rig's own directory with a garbled pid file exits 3 before launching
   * anything, naming the file and {@code rig down}, and keeps the file (it used to delete it and
   * start a second relay). LifecycleIT holds the partner: after {@code down}, the same up starts.
   */
  @Test
  void upOverAGarbledPidFileExitsThreeAndKeepsIt() throws Exception {
    Path state = Files.createDirectories(dir.resolve("own"));
    Files.writeString(state.resolve(".ceiling-rig-state"), "");
    Files.writeString(state.resolve("relay.pid.json"), "{\"pid\": 12, torn");
    Cli.Outcome up = Cli.run("rig", "up", "--state-dir", state.toString());
    try {
      assertThat(up.code()).as(up.toString()).isEqualTo(3);
      assertThat(up.err()).contains("unreadable").contains("rig down --state-dir");
      assertThat(state.resolve("relay.pid.json")).hasContent("{\"pid\": 12, torn");
    } finally {
      if (up.code() == 0) {
        // The defect itself: a relay was started over the file. End it through the rig.
        Cli.run("rig", "down", "--state-dir", state.toString());
      }
    }
  }
}
