package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented exit code and files of the commands that need no relay: model, report, combine,
 * rig status and down with nothing running. (Commands that need a relay: LauncherIT and the e2e
 * package.)
 */
class HappyPathContractTest {
  @TempDir Path dir;

  @Test
  void modelWritesBothReportsAndNeverEstablishes() throws Exception {
    Path json = dir.resolve("model.json");
    Path html = dir.resolve("model.html");
    Cli.Outcome o =
        run(
            "model",
            "--rates",
            "100,200,800,1000",
            "--json",
            json.toString(),
            "--html",
            html.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out()).startsWith("MODEL: ").contains("verdict: ");
    assertThat(o.err()).isEmpty();
    ExperimentReport r = Json.read(json, ExperimentReport.class);
    assertThat(r.treatment().cells()).isNotEmpty();
    assertThat(Files.readString(html)).contains("<figure class=\"chart\">");
  }

  @Test
  void reportRechecksASavedReportAndRendersIt() throws Exception {
    Path json = dir.resolve("model.json");
    assertThat(run("model", "--json", json.toString()).code()).isEqualTo(1);
    ExperimentReport saved = Json.read(json, ExperimentReport.class);
    Path html = dir.resolve("again.html");
    Cli.Outcome o = run("report", json.toString(), "--html", html.toString());
    int expected = saved.verdict().established() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED;
    assertThat(o.code()).as(o.toString()).isEqualTo(expected);
    assertThat(o.out()).contains("verdict: ");
    assertThat(Files.readString(html)).contains("<figure class=\"chart\">");

    // Mutant partner: the same file with its verdict flipped is refused (exit 2, one line).
    String text = Files.readString(json);
    String flipped =
        saved.verdict().established()
            ? text.replaceFirst("\"established\" : true", "\"established\" : false")
            : text.replaceFirst("\"established\" : false", "\"established\" : true");
    assertThat(flipped).isNotEqualTo(text);
    Path edited = dir.resolve("edited.json");
    Files.writeString(edited, flipped);
    Cli.assertUsageError(run("report", edited.toString()), edited.toString());
  }

  @Test
  void combineJudgesTwoHalvesAndWritesBothReports() throws Exception {
    Path model = dir.resolve("model.json");
    assertThat(run("model", "--json", model.toString()).code()).isEqualTo(1);
    ExperimentReport m = Json.read(model, ExperimentReport.class);
    Path a = dir.resolve("treatment.json");
    Path b = dir.resolve("control.json");
    Json.write(a, m.treatment());
    Json.write(b, m.control());
    Path json = dir.resolve("report.json");
    Path html = dir.resolve("report.html");
    // Either order.
    Cli.Outcome o =
        run(
            "combine",
            b.toString(),
            a.toString(),
            "--json",
            json.toString(),
            "--html",
            html.toString());
    ExperimentReport r = Json.read(json, ExperimentReport.class);
    assertThat(o.code())
        .as(o.toString())
        .isEqualTo(r.verdict().established() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED);
    assertThat(r.verdict()).isEqualTo(m.verdict());
    assertThat(Files.readString(html)).contains("<figure class=\"chart\">");

    // Mutant partner: a treatment half twice is not an experiment (exit 2, naming the problem).
    Cli.Outcome twice = run("combine", a.toString(), a.toString());
    assertThat(twice.code()).as(twice.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(twice.errLines()).hasSize(1);
  }

  @Test
  void rigStatusAndDownWithNothingRunning() {
    Cli.Outcome status = run("rig", "status", "--state-dir", dir.toString());
    assertThat(status.out()).as(status.toString()).isNotEmpty();
    Cli.Outcome down = run("rig", "down", "--state-dir", dir.toString());
    assertThat(down.code()).as(down.toString()).isZero();
    assertThat(down.out()).contains("nothing to stop");
  }
}
