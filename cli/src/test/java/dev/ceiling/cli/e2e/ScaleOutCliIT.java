package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.experiment.Journal;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling sweep --generators 2} as a user runs it, against the real reference relay: exit 1
 * (a half-run), the half-run and journal written, and the cell's counts are exactly the planned
 * slots of one schedule (45/s for 3 s after a 0.4 s warm-up: slots 18..152, 135 in the window, 18
 * in the warm-up) although two processes sent them. 3 s, so a process the machine holds up keeps
 * its slots for 0.3 s past the window (experiment's ScaleOutIT says why). The negative control of
 * the same counts check (a merge that keeps one segment) is experiment's ScaleOutIT.
 */
class ScaleOutCliIT {
  @TempDir Path dir;

  @Test
  void sweepWithTwoGeneratorProcessesWritesAnExactCell() throws Exception {
    UpOptions up =
        UpOptions.of(Relays.reference(), "on", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(Relays.freePorts(Relays.UNDELAYED));
    try (RigHandle rig = Rig.up(up)) {
      Path half = dir.resolve("half.json");
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          Main.execute(
              new PrintWriter(out, true),
              new PrintWriter(err, true),
              "sweep",
              "--rig",
              rig.descriptorFile().toString(),
              "--json",
              half.toString(),
              "--rates",
              "45",
              "--repeats",
              "1",
              "--duration",
              "3",
              "--warmup",
              "0.4",
              "--generators",
              "2",
              "--identities",
              "4",
              "--verbose");
      assertThat(code).as(err.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
      assertThat(out.toString()).contains("NOT ESTABLISHED: a half-run is a partial experiment");
      HalfRun h = Json.read(half, HalfRun.class);
      assertThat(h.complete()).isTrue();
      assertThat(h.cells()).hasSize(1);
      // The keys the offer was signed with are part of what the half-run claims to have measured.
      assertThat(h.identity().measurement().identities()).isEqualTo(4);
      Cell c = h.cells().get(0);
      // Both processes reached the console's progress, each labelled by its segment.
      assertThat(err.toString()).contains("2 generator processes, segments 0/2..1/2");
      String selfCheck = "the generator's self-check: " + c.generatorBoundReason();
      assertThat(c.attempted()).as(selfCheck).isEqualTo(135);
      assertThat(c.accepted()).as(selfCheck).isEqualTo(135);
      assertThat(c.warmupSlotsSent()).as(selfCheck).isEqualTo(18);
      assertThat(c.unacknowledged()).as(selfCheck).isZero();
      Path journal = dir.resolve("half.jsonl");
      assertThat(Files.exists(journal)).isTrue();
      assertThat(Journal.read(journal).cells()).containsExactly(c);
    }
  }
}
