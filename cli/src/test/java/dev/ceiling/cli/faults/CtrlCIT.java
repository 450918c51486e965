package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.Journal;
import dev.ceiling.verdict.ExperimentReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (a real SIGINT to a real {@code ceiling experiment} child) at three moments: during the
 * first rig start, mid-sweep, and during the second arm's rig start. Each time the process exits
 * 130, every cell measured before the signal is in a half-run on disk (and nothing is measured
 * after it, beyond the cell that was running), the summary and the "written to" lines are printed,
 * and no relay of the run is left behind. The failing partner is the code before this test: the
 * hook ignored a signal before the first sweep existed (the run went on measuring for 60 s) and let
 * the JVM exit before the summary was printed.
 *
 * <p>The rate is tiny (30 events/s, 1 s windows) and every wait is generous. Three cells an arm
 * (one rate, three repeats), the fewest that leave a mid-sweep signal room to show that the sweep
 * stopped after the running cell: one cell journalled when the signal is sent, the running one
 * finished, and never the third (the arm is then incomplete). Each cell lasts seconds (window,
 * warm-up, grace period), and the test looks at the journal every 20 ms, so the signal lands while
 * the second cell runs. Two rates of two repeats measured a fourth cell an arm and checked nothing
 * more: no assertion reads a rate.
 */
class CtrlCIT {
  @TempDir Path dir;
  Child child;

  // A resume passes the same ports: the community hosts (host:port) are part of the identity.
  final int port;
  final int dbPort;

  CtrlCIT() throws IOException {
    port = FreePorts.one();
    dbPort = FreePorts.one();
  }

  @AfterEach
  void cleanUp() throws Exception {
    Child.endAll(child, dir);
  }

  private Path out() {
    return dir.resolve("run");
  }

  private Child experiment() throws IOException {
    return experiment("experiment", "--out", "3");
  }

  /** The run's command; {@code how} is --out or --resume, with the given repeats. */
  private Child experiment(String name, String how, String repeats) throws IOException {
    return Child.start(dir, name, experimentArgs(how, repeats));
  }

  private List<String> experimentArgs(String how, String repeats) {
    return List.of(
        "experiment",
        how,
        out().toString(),
        "--rates",
        "30",
        "--repeats",
        repeats,
        "--duration",
        "1",
        "--warmup",
        "0.2",
        "--param",
        "port=" + port,
        "--param",
        "db_port=" + dbPort);
  }

  @Test
  void ctrlCDuringTheFirstRigStartMeasuresNothingAndLeavesNoRelay() throws Exception {
    child = experiment();
    assertThat(
            child.awaitCondition(
                () -> Files.exists(out().resolve("rig-on").resolve("relay.log")),
                Duration.ofMinutes(2)))
        .as("the rig start began\n%s", child)
        .isTrue();
    child.interrupt();
    int code = child.await(Duration.ofSeconds(150));
    assertThat(code).as(child.toString()).isEqualTo(130);
    assertThat(cellLines(out().resolve("journal-on.jsonl")))
        .as("no cell starts after Ctrl-C during the rig start\n%s", child)
        .isZero();
    assertThat(out().resolve("journal-off.jsonl")).doesNotExist();
    assertThat(child.err()).contains("written to " + out().toAbsolutePath());
    assertNoRelayLeft();
  }

  @Test
  void ctrlCMidSweepKeepsEveryCellPrintsWhereTheyAreAndResumeCompletes() throws Exception {
    child = experiment();
    Path journal = out().resolve("journal-on.jsonl");
    assertThat(child.awaitCondition(() -> cellLines(journal) >= 1, Duration.ofMinutes(3)))
        .as("a first cell was journalled\n%s", child)
        .isTrue();
    child.interrupt();
    int code = child.await(Duration.ofSeconds(150));
    assertThat(code).as(child.toString()).isEqualTo(130);

    HalfRun half = Json.read(out().resolve("half-on.json"), HalfRun.class);
    assertThat(half.complete()).isFalse();
    assertThat(half.incompleteReason()).contains("interrupted");
    // Every journalled cell is in the half-run, and the sweep stopped after the running cell.
    assertThat(half.cells()).hasSize(Journal.read(journal).cells().size());
    assertThat(half.cells().size()).isBetween(1, 2);
    assertThat(out().resolve("journal-off.jsonl")).doesNotExist();
    assertThat(out().resolve("report.json")).exists();
    assertThat(child.out()).contains("NOT ESTABLISHED").contains("interrupted");
    assertThat(child.err())
        .contains("written to " + out().toAbsolutePath())
        .contains("report.json  " + out().resolve("report.json").toAbsolutePath());
    assertNoRelayLeft();

    // Resume: refused at once, before any relay starts, when an option differs from the journal.
    Path log = out().resolve("rig-on").resolve("relay.log");
    FileTime logBefore = Files.getLastModifiedTime(log);
    Child wrong = experiment("wrong", "--resume", "2");
    assertThat(wrong.await(Duration.ofMinutes(2))).as(wrong.toString()).isEqualTo(2);
    assertThat(wrong.err().lines().toList())
        .as(wrong.toString())
        .singleElement()
        .satisfies(l -> assertThat(l).contains("repeats journal 3, now 2"));
    assertThat(Files.getLastModifiedTime(log)).as("no relay was started").isEqualTo(logBefore);
    // A new run into the same directory is refused too, instead of clobbering the journal.
    Child again = experiment("again", "--out", "3");
    assertThat(again.await(Duration.ofMinutes(2))).as(again.toString()).isEqualTo(2);
    assertThat(again.err()).contains("--resume " + out());
    assertThat(Files.getLastModifiedTime(log)).as("no relay was started").isEqualTo(logBefore);

    // With the same options it completes both arms, keeping every cell measured before Ctrl-C.
    Child resumed = experiment("resumed", "--resume", "3");
    int resumedCode = resumed.await(Duration.ofMinutes(5));
    assertThat(resumedCode).as(resumed.toString()).isIn(0, 1);
    HalfRun on = Json.read(out().resolve("half-on.json"), HalfRun.class);
    assertThat(on.complete()).isTrue();
    assertThat(on.cells()).hasSize(3).containsAll(half.cells());
    HalfRun off = Json.read(out().resolve("half-off.json"), HalfRun.class);
    assertThat(off.complete()).isTrue();
    assertThat(off.cells()).hasSize(3);
    assertThat(off.identity()).isEqualTo(on.identity()).isEqualTo(half.identity());
    ExperimentReport report = Json.read(out().resolve("report.json"), ExperimentReport.class);
    assertThat(report.treatment()).isEqualTo(on);
    assertThat(report.control()).isEqualTo(off);
    assertNoRelayLeft();
  }

  /**
   * SIGTERM mid-sweep is Ctrl-C: the running cell finishes, the half-run is written, the relay is
   * taken down and the exit code is 130 (the JVM's own would be 143, which is what this test saw
   * before). Then a resume whose relay differs (another {@code exchange_delay_ms}) is refused as an
   * error, exit 2, on stderr, not as a verdict on stdout; its partner, the same options, completes.
   */
  @Test
  void sigtermMidSweepIsCtrlCAndAResumeWithAnotherRelayIsAnError() throws Exception {
    child = experiment();
    Path journal = out().resolve("journal-on.jsonl");
    assertThat(child.awaitCondition(() -> cellLines(journal) >= 1, Duration.ofMinutes(3)))
        .as("a first cell was journalled\n%s", child)
        .isTrue();
    child.terminate();
    assertThat(child.await(Duration.ofSeconds(150))).as(child.toString()).isEqualTo(130);
    HalfRun half = Json.read(out().resolve("half-on.json"), HalfRun.class);
    assertThat(half.complete()).isFalse();
    assertThat(half.cells()).hasSize(Journal.read(journal).cells().size());
    assertThat(child.err()).contains("written to " + out().toAbsolutePath());
    assertNoRelayLeft();

    List<String> differs = new java.util.ArrayList<>(experimentArgs("--resume", "3"));
    differs.addAll(List.of("--param", "exchange_delay_ms=1"));
    Child refused = Child.start(dir, "differs", differs);
    assertThat(refused.await(Duration.ofMinutes(3))).as(refused.toString()).isEqualTo(2);
    assertThat(refused.out()).as(refused.toString()).doesNotContain("cannot resume");
    assertThat(refused.err().lines().filter(l -> l.startsWith("error: ")).toList())
        .as(refused.toString())
        .singleElement()
        .satisfies(l -> assertThat(l).contains("cannot resume arm 'on'").contains("differs"));
    assertNoRelayLeft();
  }

  /**
   * SIGKILL mid-sweep: no teardown runs, so the relay (in its own session) is left running and only
   * the journal holds the cells. {@code experiment --resume} stops that relay (its pid file proves
   * it is this directory's) and completes the treatment arm with every journalled cell. That resume
   * is then Ctrl-C'd during the control arm's rig start: it exits 130 keeping the first arm whole,
   * measuring nothing of the second, printing where the files are and leaving no relay. A second
   * resume completes the run. (The Ctrl-C during the second rig start has this resume to itself
   * rather than a fresh run, which would measure a whole treatment arm only to reach that moment.)
   */
  @Test
  void sigkillMidSweepLosesNoJournalledCellAndCtrlCDuringTheSecondRigStartKeepsTheFirstArm()
      throws Exception {
    child = experiment();
    Path journal = out().resolve("journal-on.jsonl");
    assertThat(child.awaitCondition(() -> cellLines(journal) >= 1, Duration.ofMinutes(3)))
        .as("a first cell was journalled\n%s", child)
        .isTrue();
    child.process.destroyForcibly();
    child.await(Duration.ofMinutes(1));
    List<dev.ceiling.core.model.Cell> before = Journal.read(journal).cells();
    assertThat(before).isNotEmpty();
    assertThat(out().resolve("half-on.json")).doesNotExist();
    assertThat(out().resolve("rig-off")).doesNotExist();

    child = experiment("resumed", "--resume", "3");
    assertThat(
            child.awaitCondition(
                () -> Files.exists(out().resolve("rig-off").resolve("relay.log")),
                Duration.ofMinutes(4)))
        .as("the control arm's rig start began\n%s", child)
        .isTrue();
    child.interrupt();
    int code = child.await(Duration.ofSeconds(150));
    assertThat(code).as(child.toString()).isEqualTo(130);
    assertThat(child.err()).contains("the interrupted run's relay");
    HalfRun on = Json.read(out().resolve("half-on.json"), HalfRun.class);
    assertThat(on.complete()).isTrue();
    assertThat(on.cells()).hasSize(3).containsAll(before);
    assertThat(cellLines(out().resolve("journal-off.jsonl"))).as(child.toString()).isZero();
    assertThat(out().resolve("report.json")).exists();
    assertThat(child.err()).contains("written to " + out().toAbsolutePath());
    assertNoRelayLeft();

    child = experiment("completed", "--resume", "3");
    int completed = child.await(Duration.ofMinutes(5));
    assertThat(completed).as(child.toString()).isIn(0, 1);
    assertThat(Json.read(out().resolve("half-on.json"), HalfRun.class)).isEqualTo(on);
    HalfRun off = Json.read(out().resolve("half-off.json"), HalfRun.class);
    assertThat(off.complete()).isTrue();
    assertThat(off.cells()).hasSize(3);
    assertThat(out().resolve("report.json")).exists();
    assertNoRelayLeft();
  }

  private void assertNoRelayLeft() {
    // The relay runs in its own session (setsid), so the signal never reached it: only the
    // experiment's teardown can have stopped it. Its command line names the run's state dir.
    List<String> left =
        ProcessHandle.allProcesses()
            .filter(ProcessHandle::isAlive)
            .map(p -> p.info().commandLine().orElse(""))
            .filter(c -> c.contains(out().toString()))
            .toList();
    assertThat(left).as("processes of this run still alive").isEmpty();
  }

  static long cellLines(Path journal) {
    if (!Files.exists(journal)) {
      return 0;
    }
    try {
      return Files.readAllLines(journal).stream()
          .filter(l -> l.startsWith("{\"type\":\"cell\""))
          .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
