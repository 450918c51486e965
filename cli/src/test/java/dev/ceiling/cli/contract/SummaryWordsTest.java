package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console summary's words, read as a user reads them. */
class SummaryWordsTest {
  @TempDir Path dir;

  static final List<Double> RATES = List.of(100.0, 200.0);

  /** Control at 1.0; treatment 0.8 at 200/s; one treatment cell at 100/s with low headroom. */
  private Path[] halves() throws Exception {
    ExperimentIdentity id = Halves.identity(RATES, 3);
    HalfRun on = Halves.half(id, Halves.ON, new double[][] {{1.0, 0.99, 1.0}, {0.80, 0.81, 0.79}});
    List<Cell> cells = new ArrayList<>(on.cells());
    cells.set(0, cells.get(0).toBuilder().headroom(1.2).build());
    // Not steady and growing: banked queue credit.
    cells.set(1, cells.get(1).toBuilder().outstandingDelta(400L).build());
    on =
        new HalfRun(
            on.schemaVersion(),
            id,
            on.arm(),
            on.rig(),
            on.startedAt(),
            on.finishedAt(),
            true,
            null,
            cells);
    HalfRun off = Halves.half(id, Halves.OFF, new double[][] {{1.0, 1.0, 0.99}, {1.0, 0.99, 1.0}});
    Path t = dir.resolve("half-on.json");
    Path c = dir.resolve("half-off.json");
    Json.write(t, on);
    Json.write(c, off);
    return new Path[] {t, c};
  }

  @Test
  void theSummaryPrintsHolmPExcludedReasonsAndNotes() throws Exception {
    Path[] h = halves();
    Path json = dir.resolve("report.json");
    Cli.Outcome o = run("combine", h[0].toString(), h[1].toString(), "--json", json.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.ESTABLISHED);
    ExperimentReport r = Json.read(json, ExperimentReport.class);
    double p200 = r.verdict().rates().get(1).difference().pAdjusted();
    String line200 = o.out().lines().filter(l -> l.startsWith("200 ")).findFirst().orElseThrow();
    assertThat(line200)
        .contains(String.format(java.util.Locale.ROOT, "%.1e", p200))
        .endsWith("yes");
    // The answer leads; the table's header follows it.
    assertThat(o.out().lines().findFirst().orElseThrow()).startsWith("Yes: with 'on'");
    assertThat(o.out().lines().filter(l -> l.startsWith("offered/s")).findFirst().orElseThrow())
        .contains("Holm p");
    assertThat(o.out())
        .contains("excluded cells: 1\n  on@100/s#0 (seq 0): [LOW_HEADROOM] generator headroom 1.2x")
        .contains("note: " + Verdict.MASKED_CEILING_NOTE)
        .contains("treatment evidence cell(s) banked queue credit");
  }

  @Test
  void anExperimentReportGivenToCombineIsNamed() throws Exception {
    Path[] h = halves();
    Path json = dir.resolve("report.json");
    run("combine", h[0].toString(), h[1].toString(), "--json", json.toString());
    Cli.Outcome o = run("combine", json.toString(), h[1].toString());
    assertUsageError(o, json.toString());
    assertThat(o.errLines().get(0))
        .contains("this is an experiment report; combine takes two half-runs")
        .doesNotContain("unknown field");
    // Mutant partner: a half-run with an unknown field is still reported as the field.
    Path odd = dir.resolve("odd.json");
    Files.writeString(
        odd, Files.readString(h[0]).replaceFirst("\"arm\"", "\"colour\" : 1, \"arm\""));
    Cli.Outcome oddOut = run("combine", odd.toString(), h[1].toString());
    assertUsageError(oddOut, "unknown field 'colour'");
  }

  @Test
  void aNaNInAFileNamesItsField() throws Exception {
    Path[] h = halves();
    String text = Files.readString(h[0]);
    Path nan = dir.resolve("nan.json");
    Files.writeString(nan, text.replaceFirst("\"headroom\" : 1.2", "\"headroom\" : NaN"));
    assertThat(Files.readString(nan)).isNotEqualTo(text);
    Cli.Outcome o = run("combine", nan.toString(), h[1].toString());
    assertUsageError(o, "$.cells[0].environment.headroom: NaN is not a measurement");
    assertThat(o.err()).doesNotContain("ALLOW_NON_NUMERIC_NUMBERS").doesNotContain("Feature");
  }

  @Test
  void oneRepeatSaysSoInsteadOfBlamingExclusions() throws Exception {
    ExperimentIdentity id = Halves.identity(RATES, 1);
    ExperimentReport r =
        ExperimentReport.of(
            Combine.combine(
                Halves.half(id, Halves.ON, new double[][] {{1.0}, {0.8}}),
                Halves.half(id, Halves.OFF, new double[][] {{1.0}, {1.0}})),
            VerdictConfig.defaults());
    Path json = dir.resolve("one.json");
    Json.write(json, r);
    Cli.Outcome o = run("report", json.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out())
        .contains("the experiment plans repeats = 1 per rate")
        .doesNotContain("too much of this dataset was excluded")
        .doesNotContain("no cells were excluded");
  }
}
