package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.ChildClasspath;
import dev.ceiling.experiment.Journal;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills during a sweep: the journal lives on a real 1 MiB tmpfs, which the test fills
 * once the first cell is journalled. The sweep must say which file it could not write, that the
 * journal keeps every cell measured so far and that {@code --resume} continues; the half-run
 * (elsewhere) holds every measured cell. The partner: once there is room, the very resume it named
 * completes the sweep with nothing measured twice.
 *
 * <p>Needs to mount a tmpfs (root, or CAP_SYS_ADMIN); skipped, saying so, where it cannot.
 */
class DiskFullIT {
  @TempDir Path dir;

  @Test
  void aFullDiskNamesTheJournalAndTheResumeThatContinues() throws Exception {
    Path small = Files.createDirectories(dir.resolve("small"));
    Assumptions.assumeTrue(
        run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.toString()) == 0,
        "cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)");
    Process p = null;
    try {
      UpOptions up =
          UpOptions.of(Relays.reference(), "on", dir.resolve("rig"))
              .withReset(true)
              .withOverrides(Relays.freePorts(Map.of("exchange_delay_ms", "0")));
      try (RigHandle rig = Rig.up(up)) {
        Path journal = small.resolve("journal.jsonl");
        Path half = dir.resolve("half.json");
        List<String> sweep =
            List.of(
                "sweep",
                "--rig",
                rig.descriptorFile().toString(),
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
        Path log = dir.resolve("first.log");
        p =
            new ProcessBuilder(ChildClasspath.command(Main.class.getName(), List.of(), first))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (cellLines(journal) < 1 && System.nanoTime() < deadline && p.isAlive()) {
          Thread.sleep(50);
        }
        assertThat(cellLines(journal)).as(Files.readString(log)).isPositive();
        Path filler = small.resolve("filler");
        fill(filler);
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(Files.readString(log)).isTrue();
        String said = Files.readString(log);
        assertThat(p.exitValue()).as(said).isEqualTo(3);
        assertThat(said)
            .contains("error: cannot append to the journal " + journal)
            .contains("No space left on device")
            .contains("--resume " + journal);
        HalfRun partial = Json.read(half, HalfRun.class);
        assertThat(partial.complete()).isFalse();
        int journalled = Journal.read(journal).cells().size();
        assertThat(partial.cells().size()).isGreaterThanOrEqualTo(journalled).isLessThan(4);

        // Partner: with room again, the named resume completes, nothing measured twice.
        Files.delete(filler);
        List<String> resume = new ArrayList<>(sweep);
        resume.addAll(List.of("--resume", journal.toString()));
        assertThat(Main.execute(resume.toArray(String[]::new))).isEqualTo(1);
        HalfRun done = Json.read(half, HalfRun.class);
        assertThat(done.complete()).isTrue();
        assertThat(done.cells()).hasSize(4);
        assertThat(Journal.read(journal).cells()).hasSize(4);
      }
    } finally {
      // A sweep still running (a failed wait above) keeps its journal open on the tmpfs, and the
      // unmount would fail, leaving the mount behind: end it first.
      if (p != null && p.isAlive()) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
      run("umount", small.toString());
    }
  }

  /** Writes until the file system says it is full. */
  private static void fill(Path filler) throws IOException {
    byte[] block = new byte[4096];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException full) {
      assertThat(full.getMessage()).contains("No space left");
    }
  }

  private static long cellLines(Path journal) throws IOException {
    if (!Files.exists(journal)) {
      return 0;
    }
    return Files.readAllLines(journal).stream()
        .filter(l -> l.startsWith("{\"type\":\"cell\""))
        .count();
  }

  private static int run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }
}
