package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.verdict.ExperimentReport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --equivalence-margin} the way a user runs it: every bad value is one usage line naming the
 * option (exit 2) before anything starts; {@code combine} refuses halves declared with different
 * margins, naming both; halves with one margin get the equivalence answer in words and figures.
 */
class EquivalenceMarginContractTest {
  @TempDir Path dir;

  @Test
  void everyBadMarginIsOneLineNamingTheOption() {
    for (String bad : new String[] {"0", "1", "-0.05", "1.5", "NaN", "Infinity", "five", ""}) {
      assertUsageError(run("experiment", "--equivalence-margin", bad), "--equivalence-margin");
      assertUsageError(
          run(
              "sweep",
              "--rig",
              "r.json",
              "--json",
              "h.json",
              "--rates",
              "1",
              "--equivalence-margin",
              bad),
          "--equivalence-margin");
    }
    // Partner: a good margin passes the option checks; what stops this run is the next problem.
    Cli.Outcome ok = run("experiment", "--equivalence-margin", "0.05", "--repeats", "1");
    assertUsageError(ok, "--repeats");
    assertThat(ok.err()).doesNotContain("--equivalence-margin");
    assertThat(run("experiment", "--help").out().replaceAll("\\s+", " "))
        .contains("--equivalence-margin=DELTA")
        .contains("part of the run's identity (default: no equivalence question)");
    assertThat(run("sweep", "--help").out()).contains("--equivalence-margin=DELTA");
    // combine and report use the margin the halves recorded: no flag to choose one after the data.
    assertThat(run("combine", "--help").out()).doesNotContain("--equivalence-margin");
    assertThat(run("report", "--help").out()).doesNotContain("--equivalence-margin");
  }

  private Path write(String name, ExperimentIdentity id, String arm) throws Exception {
    Path p = dir.resolve(name);
    Json.write(p, Halves.half(id, arm, new double[][] {{1, 1, 1}, {1, 1, 1}}));
    return p;
  }

  @Test
  void combineRefusesHalvesWithDifferentMarginsAndAnswersTheQuestionWhenTheyAgree()
      throws Exception {
    ExperimentIdentity id = Halves.identity(List.of(100.0, 200.0), 3).withEquivalenceMargin(0.05);
    Path on = write("half-on.json", id, Halves.ON);
    Path off = write("half-off.json", id.withEquivalenceMargin(0.1), Halves.OFF);
    Cli.Outcome refused = run("combine", on.toString(), off.toString());
    assertThat(refused.code()).as(refused.toString()).isEqualTo(2);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err())
        .contains("equivalence_margin differs: 0.05 in the 'on' half vs 0.1 in the 'off' half");

    Path same = write("half-off-same.json", id, Halves.OFF);
    Path json = dir.resolve("report.json");
    Path html = dir.resolve("report.html");
    Cli.Outcome o =
        run(
            "combine",
            on.toString(),
            same.toString(),
            "--json",
            json.toString(),
            "--html",
            html.toString());
    // Not shown to limit (exit 1), and, apart from that, shown to cost less than 0.05.
    assertThat(o.code()).as(o.toString()).isEqualTo(1);
    List<String> lines = o.out().lines().toList();
    assertThat(lines.get(0)).startsWith("No: ");
    assertThat(lines.get(1))
        .startsWith(
            "equivalence: 'on' costs less than 0.05 of accepted/offered against 'off' at 100/s,"
                + " 200/s: equivalent within +-0.05");
    assertThat(o.out()).contains("EQUIVALENT WITHIN 0.05").contains("verdict: NOT ESTABLISHED");
    ExperimentReport report = Json.read(json, ExperimentReport.class);
    assertThat(report.verdict().equivalence().rates())
        .allSatisfy(r -> assertThat(r.tost().lower()).isGreaterThan(-0.05));
    assertThat(java.nio.file.Files.readString(html))
        .contains("<p class=\"answer equivalence\">Equivalence: &#39;on&#39; costs less than 0.05")
        .contains("<h2>Equivalence within +-0.05 of accepted/offered</h2>");
    // The stored run re-read by 'report' answers with the stored margin.
    Cli.Outcome again = run("report", json.toString());
    assertThat(again.code()).as(again.toString()).isEqualTo(1);
    assertThat(again.out()).contains("equivalence: 'on' costs less than 0.05");
  }
}
