package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellProblems;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay that stops answering mid-cell, with no link to blame: the real reference relay (the
 * {@code reference} profile declares no upstream) is stopped with SIGSTOP about a second into its
 * second cell's load and continued with SIGCONT a second after that cell's window closed. The cell
 * is excluded as {@code RELAY_STALLED}, its message naming how long the relay was silent and how
 * many events it owed; the partner, the same run without the stop, has no stall in any cell.
 *
 * <p>The truth that the relay was stopped is the kernel's, not Ceiling's: {@code /proc/PID/stat}
 * shows the process in state T (stopped) right after the signal. The pid is the one this test's rig
 * started (the descriptor's relay pid), and nothing else is signalled. Counts and a 2 s bound
 * against a silence of about 4 s are asserted, not timings: a loaded machine that prints the
 * generator's progress line late only moves the stop later in the window, and the stop is placed so
 * that even 2 s late it leaves more than the bound.
 */
class RelayStallIT {
  private static final double DURATION_S = 7.0;

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void theReferenceRelayStoppedMidCellIsExcludedAsStalledNeverReadAsACeiling() throws Exception {
    Stopper stopper = new Stopper(1);
    Run r = run(stopper);
    assertThat(stopper.stateAfterStop).as("the kernel saw the relay stopped").isEqualTo("T");
    assertThat(stopper.continued).as("and it was continued").isTrue();
    Cell stopped = r.cells.get(1);
    List<CellProblem> p = CellProblems.of(stopped, r.identity, VerdictConfig.defaults());
    assertThat(p)
        .filteredOn(x -> x.kind() == ProblemKind.RELAY_STALLED)
        .singleElement()
        .satisfies(
            x -> {
              assertThat(x.excludesEvidence()).isTrue();
              assertThat(x.message())
                  .startsWith("the relay answered nothing (no OK, no NOTICE) for the last ")
                  .contains(" events outstanding, and no link failed to blame");
            });
    assertThat(stopped.counts().silenceAtWindowEndS())
        .isGreaterThanOrEqualTo(CellProblems.RELAY_STALL_BOUND_S);
    assertThat(stopped.counts().outstandingAtWindowEnd()).isPositive();
    assertThat(p).extracting(CellProblem::kind).doesNotContain(ProblemKind.LINK_FAILED);
    // The cell before the stop is not stalled.
    assertThat(CellProblems.of(r.cells.get(0), r.identity, VerdictConfig.defaults()))
        .extracting(CellProblem::kind)
        .doesNotContain(ProblemKind.RELAY_STALLED);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void partnerTheSameRunWithoutTheStopHasNoStalledCell() throws Exception {
    Run r = run(new Stopper(-1));
    assertThat(r.cells).hasSize(2);
    for (Cell c : r.cells) {
      assertThat(c.counts().silenceAtWindowEndS())
          .as("cell %d's silence at the window's end", c.sequence())
          .isNotNull()
          .isLessThan(CellProblems.RELAY_STALL_BOUND_S);
      assertThat(CellProblems.of(c, r.identity, VerdictConfig.defaults()))
          .extracting(CellProblem::kind)
          .doesNotContain(ProblemKind.RELAY_STALLED);
    }
  }

  private record Run(List<Cell> cells, ExperimentIdentity identity) {}

  private Run run(Stopper stopper) throws Exception {
    UpOptions up =
        UpOptions.of(RelayProfile.builtIn("reference"), "on", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(
                Map.of(
                    "port",
                    Integer.toString(ScaleOutIT.freePort()),
                    "db_port",
                    Integer.toString(ScaleOutIT.freePort()),
                    "calibration_runs",
                    "10"));
    try (RigHandle rig = Rig.up(up)) {
      RigDescriptor d = rig.descriptor();
      stopper.pid = d.relayPid();
      SweepOptions o =
          SweepOptions.defaults(dir.resolve("journal.jsonl"))
              .withWarmup(Duration.ofMillis(200))
              .withGrace(Duration.ofSeconds(3))
              .withDrainTimeout(Duration.ofSeconds(5));
      ExperimentIdentity identity =
          Identities.of(
              RelayProfile.builtIn("reference"),
              d,
              List.of(40.0),
              DURATION_S,
              2,
              null,
              o.measurement());
      SweepRunner runner =
          new SweepRunner(
              new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(10), 16 * 1024 * 1024),
              stopper);
      try {
        SweepRunner.Outcome out = runner.run(d, identity, o);
        assertThat(out.failure()).isNull();
        return new Run(out.half().cells(), identity);
      } finally {
        stopper.continueNow();
      }
    }
  }

  /**
   * Stops the relay at the first progress line 1 s or more into cell {@code cellIndex}'s load, and
   * continues it a second after that cell's window closed (warm-up + duration + 1 s from its clock
   * start); -1 never stops.
   */
  private static final class Stopper implements SweepProgress {
    private final int cellIndex;
    private volatile int finished;
    volatile Long pid;
    volatile String stateAfterStop;
    volatile boolean stopped;
    volatile boolean continued;

    Stopper(int cellIndex) {
      this.cellIndex = cellIndex;
    }

    @Override
    public void cellFinished(Cell cell, int done, int planned) {
      finished = done;
    }

    @Override
    public void generatorLine(String line) {
      if (finished != cellIndex || stopped || !line.startsWith("t=")) {
        return;
      }
      double t = Double.parseDouble(line.substring(2, line.indexOf('s')));
      if (t < 1.0) {
        return;
      }
      stopped = true;
      try {
        signal("STOP");
        stateAfterStop = state();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      long afterMs = Math.round((0.2 + DURATION_S + 1.0 - t) * 1000);
      Thread th =
          new Thread(
              () -> {
                try {
                  Thread.sleep(Math.max(0, afterMs));
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                continueNow();
              },
              "relay-stall-continue");
      th.setDaemon(true);
      th.start();
    }

    synchronized void continueNow() {
      if (stopped && !continued) {
        try {
          signal("CONT");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        continued = true;
      }
    }

    private void signal(String sig) throws Exception {
      Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
    }

    /**
     * The process state letter from /proc/PID/stat (after the command's closing parenthesis), read
     * until it shows T or for at most 2 s: the kernel delivers the signal asynchronously.
     */
    private String state() throws Exception {
      String s = "";
      for (int i = 0; i < 200 && !s.equals("T"); i++) {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        s = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        if (!s.equals("T")) {
          Thread.sleep(10);
        }
      }
      return s;
    }
  }
}
