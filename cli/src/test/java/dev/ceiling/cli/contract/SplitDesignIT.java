package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.SplitRoundReport;
import dev.ceiling.verdict.SplitReport;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling experiment --design split} the way a user runs it: the help names it, each bad
 * combination is one usage line, and a real round on the reference relay with one audit worker (the
 * third known answer of the split round; the other two run in {@code SplitRoundIT}) exits 1 with
 * LOCK NOT MEASURABLE and writes split.json.
 *
 * <p>The plan: one worker and a lock per community at 4 ms per exchange pass about 35 to 40
 * entries/s; 120/s total is three times that or more on any machine, so in both arms the one worker
 * writes all the time (pool busy about 0.99 when measured quiet) and every pair is masked. Two
 * repeats: masking needs no variance, only pairs. A send-lag bound of 100 ms: whether the worker is
 * busy does not depend on the sender's punctuality while the queue stays full, and the test
 * command's own load wakes the sender tens of ms late, past the default 10 ms, which would exclude
 * the split cells as generator-bound and leave no pair (INCONCLUSIVE). Windows of 6 s: the busy
 * fraction is the relay's busy seconds over the client's window between two scrapes, so a scrape
 * the loaded machine answers late moves it, and in 3 s windows beside two busy loops a saturated
 * cell can read 0.93, too low to be masked. Masking allows for the end scrape's duration (the
 * verdict compares the largest busy fraction the scrapes allow), because a late end scrape
 * lengthens the span, not the worker's idle time: a saturated 6 s window can read 0.95 while its
 * relay's completions per second over that span read 4% below the generator's accepted. The test
 * asserts the masking, not the readings.
 */
class SplitDesignIT {
  @TempDir Path dir;

  @Test
  void helpAndEveryBadCombinationAreOneLineNamingTheOption() throws Exception {
    assertThat(run("experiment", "--help").out().replaceAll("\\s+", " "))
        .contains("--design=ab|split")
        .contains("LOCK NOT MEASURABLE");
    assertUsageError(run("experiment", "--design", "splits"), "--design");
    assertUsageError(run("experiment", "--design", "split", "--two-community"), "--two-community");
    Path previous = Files.createDirectories(dir.resolve("previous"));
    assertUsageError(
        run("experiment", "--design", "split", "--resume", previous.toString()), "--resume");
    assertUsageError(
        run("experiment", "--design", "split", "--equivalence-margin", "2"),
        "--equivalence-margin");
    // Partner: the A/B takes the same --two-community; what stops it is the next problem.
    Cli.Outcome ab = run("experiment", "--design", "ab", "--two-community", "--repeats", "1");
    assertUsageError(ab, "--repeats");
    assertThat(ab.err()).doesNotContain("--two-community");
  }

  @Test
  void oneWorkerMasksEveryPairAndTheRoundSaysTheLockIsNotMeasurable() throws Exception {
    Path out = dir.resolve("split");
    Cli.Outcome o =
        run(
            "experiment",
            "--design",
            "split",
            "--param",
            "port=" + FreePorts.one(),
            "--param",
            "db_port=" + FreePorts.one(),
            "--param",
            "audit_workers=1",
            "--param",
            "audit_lock=per-community",
            "--param",
            "exchange_delay_ms=4",
            "--param",
            "queue_capacity=20",
            "--param",
            "calibration_runs=50",
            "--rates",
            "120",
            "--repeats",
            "2",
            "--duration",
            "6",
            "--warmup",
            "1",
            "--lag-bound",
            "100ms",
            "--out",
            out.toString());
    System.out.println("SplitDesignIT:\n" + o);

    assertThat(o.code()).as(o.toString()).isEqualTo(1);
    assertThat(o.out()).as(o.toString()).startsWith("LOCK NOT MEASURABLE: At every rate");
    assertThat(o.out()).as(o.toString()).contains("120/s: ").contains("MASKED_BY_WORKER");
    assertThat(o.err()).as(o.toString()).contains("split.json");
    SplitRoundReport r = Json.read(out.resolve("split.json"), SplitRoundReport.class);
    assertThat(r.complete()).as(o.toString()).isTrue();
    assertThat(r.cells()).hasSize(4);
    assertThat(r.verdict().answer()).isEqualTo(SplitReport.Answer.LOCK_NOT_MEASURABLE);
    assertThat(r.verdict().rates().get(0).maskedPairs()).as(o.toString()).isEqualTo(2);
  }
}
