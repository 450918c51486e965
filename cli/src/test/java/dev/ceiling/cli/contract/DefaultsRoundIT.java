package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.html.HtmlEscapers;
import dev.ceiling.cli.report.DefaultsRoundHtml;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.verdict.IdentitiesReport;
import dev.ceiling.verdict.IdentitiesRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling experiment --design identities} the way a user runs it, and the defaults round's
 * known answer on the real reference relay at its own limiter defaults (the built-in {@code
 * reference-defaults} profile: 10 events/s per identity over a 5 s window, NOTICE on refusal).
 *
 * <p>The plan, fixed before any cell: 4 ms per audit exchange, so the worker's ceiling, about 1 /
 * (6 (4 ms + cost)) = 34 to 37/s, is set by its sleeps and not by a CPU cost that a loaded
 * machine's calibration misreads (at the profile's 0.5 ms a calibration under a load of 12 read the
 * cost as 0.5 ms, and the worker then completed 240/s against a predicted 167/s: the offer of 1.5
 * times the prediction never saturated it, and N = 40 read NOTHING instead of WORKERS). A loaded
 * machine only makes a sleeping worker slower, which keeps the offer above it. One rate, 1.5 times
 * the top of the predicted range; N = 2, 8 and 32 identities, three times each, 5 s windows (one
 * limiter window), a send-lag bound of 1 s so that a loaded machine's stalls do not cost a row its
 * cells: beside two busy loops (load about 10) the sender sleeps through stalls of 300 to 570 ms,
 * which with a bound of 250 ms and two repeats can exclude both of a row's cells (NOT_MEASURED). A
 * stall of up to 1 s delays some sends within a 5 s window; it does not change which of the limiter
 * and the workers refuses the offer. With 2 identities their budgets admit 20/s, under the worker's
 * ceiling: the limiter refuses most of the offer. From the N whose budgets pass the ceiling
 * (predicted ceiling / 10, about 3.4 to 3.7) the worker's queue backs up into the connections,
 * events reach the limiter at the worker's pace, under each identity's budget, and the workers
 * bind. The known answer: 2 binds on the limiter, 32 on the workers, and the first N the limiter
 * lets go lies within one grid step of the prediction.
 *
 * <p>A queue of 20, not the profile's 100, and a 2 s warm-up: the workers bind only once their
 * queue is full, and it fills at the offer's excess over the worker. On a quiet machine the worker
 * completes about 38/s against the 55/s offered, so a queue of 100 takes about 6 s to fill, longer
 * than a 1 s warm-up and most of the window, and N = 32 would accept 0.99 of its offer while the
 * queue absorbs the rest and read NOTHING. Twenty fill in about a second.
 */
class DefaultsRoundIT {
  private static final List<Integer> GRID = List.of(2, 8, 32);

  @TempDir Path dir;

  @Test
  void badCombinationsAreOneLineNamingTheOption() {
    assertUsageError(run("experiment", "--design", "identities", "--rates", "100,200"), "--rates");
    assertUsageError(run("experiment", "--identities", "10,100"), "--identities");
    assertUsageError(
        run("experiment", "--design", "identities", "--identities", "10,0"), "--identities");
    assertUsageError(run("experiment", "--lag-bound", "0ms"), "--lag-bound");
    // Partner: a grid is the identities design's own; what stops this run is the next problem.
    Cli.Outcome ok =
        run("experiment", "--design", "identities", "--identities", "10,100", "--rates", "x");
    assertUsageError(ok, "--rates");
    assertThat(ok.err()).doesNotContain("--identities");
  }

  @Test
  void atStockLimitsTheLimiterBindsUntilTheIdentitiesBudgetsPassTheWorkersCeiling()
      throws Exception {
    Path out = dir.resolve("defaults");
    Cli.Outcome o =
        run(
            "experiment",
            "--design",
            "identities",
            "--profile",
            "reference-defaults",
            "--param",
            "port=" + FreePorts.one(),
            "--param",
            "db_port=" + FreePorts.one(),
            "--param",
            "exchange_delay_ms=4",
            "--param",
            "queue_capacity=20",
            "--identities",
            "2,8,32",
            "--repeats",
            "3",
            "--duration",
            "5",
            "--warmup",
            "2",
            "--lag-bound",
            "1s",
            "--out",
            out.toString());
    System.out.println("DefaultsRoundIT:\n" + o);

    assertThat(o.code()).as(o.toString()).isZero();
    IdentitiesRoundReport r =
        Json.read(out.resolve("identities.json"), IdentitiesRoundReport.class);
    IdentitiesReport v = r.verdict();
    assertThat(r.complete()).as(o.toString()).isTrue();
    assertThat(r.rig().limiterSettings()).containsEntry("limiter_events_per_sec", "10");
    assertThat(v.row(2).reading()).as(o.toString()).isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(v.row(32).reading()).as(o.toString()).isEqualTo(IdentitiesRow.Reading.WORKERS);
    assertThat(v.firstFreeIdentities()).as(o.toString()).isNotNull();
    // Within one grid step of the prediction, over the relay's predicted range (cold to hot).
    double budget = v.budgetPerIdentityPerS();
    double cold = v.predictedCeilingPerS();
    double hot = Double.parseDouble(r.rig().relayInfo().get(Experiment.PREDICTED_CEILING_HOT_KEY));
    int measured = GRID.indexOf(v.firstFreeIdentities());
    boolean near = false;
    for (double ceiling : new double[] {Math.min(cold, hot), Math.max(cold, hot)}) {
      int predicted = firstAtLeast(ceiling / budget);
      near |= Math.abs(measured - predicted) <= 1;
    }
    assertThat(near)
        .as(
            "first free N %s within one grid step of %.1f to %.1f\n%s",
            v.firstFreeIdentities(), cold / budget, hot / budget, o)
        .isTrue();
    assertThat(o.out()).startsWith("At ").contains("the limiter stops binding from N = ");
    // The page beside the file, named where the files are listed, with the crossover chart.
    Path page = out.resolve(DefaultsRoundHtml.FILE);
    assertThat(o.err()).contains(page.toAbsolutePath().toString());
    assertThat(Files.readString(page))
        .contains("<figure class=\"chart\">")
        .contains(HtmlEscapers.htmlEscaper().escape(v.words()));

    // A file written before the round read the declared admission limits (no "admission") still
    // reads, with it null and everything else as written; partner: any other missing field is
    // still refused by the strict reader.
    String written = Files.readString(out.resolve("identities.json"));
    String old = withoutField(written, "admission");
    assertThat(old).doesNotContain("\"admission\"");
    IdentitiesRoundReport before = Json.read(old, "old.json", IdentitiesRoundReport.class);
    assertThat(before.admission()).isNull();
    assertThat(before.cells()).isEqualTo(r.cells());
    assertThatThrownBy(
            () ->
                Json.read(
                    withoutField(written, "offered_per_s"),
                    "old.json",
                    IdentitiesRoundReport.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("offered_per_s");
  }

  /** The report's text without its top-level {@code field} (the file's last field or not). */
  private static String withoutField(String json, String field) throws Exception {
    ObjectNode tree = (ObjectNode) new ObjectMapper().readTree(json);
    assertThat(tree.remove(field)).as(field).isNotNull();
    return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(tree);
  }

  /** The index of the first grid N at or above {@code n} (the grid's size when none). */
  private static int firstAtLeast(double n) {
    for (int i = 0; i < GRID.size(); i++) {
      if (GRID.get(i) >= n) {
        return i;
      }
    }
    return GRID.size();
  }
}
