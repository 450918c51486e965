package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.ChildClasspath;
import dev.ceiling.experiment.Journal;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interruption: a sweep killed mid-run (SIGKILL, no chance to clean up) resumes from its journal
 * and ends with the planned cell count, nothing measured twice and nothing lost.
 */
class ResumeIT {
  @TempDir Path dir;

  @Test
  void aKilledSweepResumesWithoutRepeatingCells() throws Exception {
    UpOptions up =
        UpOptions.of(Relays.reference(), "on", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(Relays.freePorts(Relays.UNDELAYED));
    try (RigHandle rig = Rig.up(up)) {
      Path descriptor = rig.descriptorFile();
      Path journal = dir.resolve("journal.jsonl");
      Path half = dir.resolve("half.json");
      List<String> sweep =
          List.of(
              "sweep",
              "--rig",
              descriptor.toString(),
              "--json",
              half.toString(),
              "--rates",
              "40,60",
              "--repeats",
              "2",
              "--duration",
              "1",
              "--warmup",
              "0.2");
      List<String> first = new ArrayList<>(sweep);
      first.addAll(List.of("--journal", journal.toString()));
      Process p =
          new ProcessBuilder(ChildClasspath.command(Main.class.getName(), List.of(), first))
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("first.log").toFile())
              .start();
      try {
        // Wait for the header and at least one finished cell, then kill without warning.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (cellLines(journal) < 1 && System.nanoTime() < deadline && p.isAlive()) {
          Thread.sleep(50);
        }
        assertThat(cellLines(journal)).as(Files.readString(dir.resolve("first.log"))).isPositive();
      } finally {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      int before = Journal.read(journal).cells().size();
      assertThat(before).isBetween(1, 3);

      // A journal from another experiment is refused, naming what differs.
      List<String> wrong = new ArrayList<>(sweep);
      wrong.set(wrong.indexOf("1"), "2");
      wrong.addAll(List.of("--resume", journal.toString()));
      assertThat(Main.execute(wrong.toArray(String[]::new))).isEqualTo(ExitCode.USAGE);

      List<String> resume = new ArrayList<>(sweep);
      resume.addAll(List.of("--resume", journal.toString()));
      // A half-run is a partial experiment: written, then exit 1.
      assertThat(Main.execute(resume.toArray(String[]::new))).isEqualTo(ExitCode.NOT_ESTABLISHED);

      HalfRun result = Json.read(half, HalfRun.class);
      assertThat(result.complete()).isTrue();
      assertThat(result.cells()).hasSize(4);
      assertThat(result.cells().stream().map(Cell::sequence).distinct()).hasSize(4);
      List<Cell> journalled = Journal.read(journal).cells();
      // Nothing repeated: the journal holds each planned cell exactly once.
      assertThat(journalled).hasSize(4);
      assertThat(journalled.stream().map(Cell::sequence).distinct()).hasSize(4);
    }
  }

  private static long cellLines(Path journal) throws Exception {
    if (!Files.exists(journal)) {
      return 0;
    }
    return Files.readAllLines(journal).stream()
        .filter(l -> l.startsWith("{\"type\":\"cell\""))
        .count();
  }
}
