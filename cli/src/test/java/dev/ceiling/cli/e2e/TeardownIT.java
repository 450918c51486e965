package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentProgress;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.experiment.testing.Relays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay the experiment started and could not stop is said, never dropped. The first arm's rig
 * files are corrupted while it runs (an unreadable pid file and descriptor: nothing proves which
 * process is ours), so the rig's stop signals nothing and keeps the files. The experiment must name
 * the arm and the reason, end as an infrastructure failure and not start the next arm beside the
 * relay still running. Before this check the stop's result was dropped and the run said nothing.
 * The partner is the same run without the corruption: the relay is stopped and nothing is said.
 */
class TeardownIT {
  @TempDir Path dir;

  /** Relays this test saw start; the ones still alive afterwards are ended by their pid. */
  private final List<Long> pids = new ArrayList<>();

  @AfterEach
  void endRelaysLeftRunning() throws Exception {
    for (long pid : pids) {
      var h = ProcessHandle.of(pid);
      if (h.isPresent()) {
        h.get().destroy();
        h.get().onExit().get(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aRelayThatCouldNotBeStoppedIsAProblemAndTheNextArmIsNotStarted() throws Exception {
    ExperimentResult r = run(true);
    assertThat(pids).hasSize(1);
    assertThat(r.problems())
        .anySatisfy(p -> assertThat(p).contains("was not stopped").contains("pid file unreadable"));
    assertThat(r.outcome()).isEqualTo(Outcome.INFRASTRUCTURE);
    // What the rig could not prove was ours is still running: the user is told to end it.
    assertThat(ProcessHandle.of(pids.get(0)).map(ProcessHandle::isAlive)).contains(true);
  }

  @Test
  void aRelayStoppedAsUsualIsNoProblem() throws Exception {
    ExperimentResult r = run(false);
    assertThat(pids).hasSize(2);
    assertThat(r.problems()).noneSatisfy(p -> assertThat(p).contains("was not stopped"));
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("pid %d", pid).isEmpty();
    }
  }

  private ExperimentResult run(boolean corruptFirstArm) throws Exception {
    ExperimentProgress progress =
        new ExperimentProgress() {
          @Override
          public void rigUp(String arm, RigDescriptor rig) {
            pids.add(rig.relayPid());
            if (corruptFirstArm && pids.size() == 1) {
              try {
                Path state = dir.resolve("rig-" + arm);
                Files.writeString(state.resolve("relay.pid.json"), "{garbled");
                Files.writeString(state.resolve("descriptor.json"), "{garbled");
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            }
          }
        };
    return Experiment.builder()
        .profile(Relays.reference())
        .relayOverrides(Relays.freePorts(Relays.UNDELAYED))
        .rates(20)
        .duration(Duration.ofSeconds(1))
        // One cell an arm: what is checked is the rig's stop after the arm's last cell, which
        // one cell reaches as surely as two (the verdict is never asserted).
        .repeats(1)
        .sweepOptions(
            SweepOptions.defaults(dir.resolve("journal.jsonl"))
                .withWarmup(Duration.ofMillis(300))
                .withGrace(Duration.ofSeconds(1))
                .withSendLagBound(Duration.ofMillis(250)))
        .outDir(dir)
        .progress(progress)
        .installShutdownHook(false)
        .run();
  }
}
