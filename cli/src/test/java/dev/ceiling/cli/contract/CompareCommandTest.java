package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertHelp;
import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.Comparison;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling compare} as a user runs it, on half-runs written as a user's files would be: its
 * help, every bad argument (exit 2, one line naming it), and a pair whose worker rate cannot be
 * compared (exit 1, never 0, with both files written). The real regression and the unchanged relay
 * are CompareCommandIT's.
 */
class CompareCommandTest {
  @TempDir Path dir;
  Path on;
  Path onAgain;

  @BeforeEach
  void halves() throws Exception {
    double[][] ratios = {{0.9, 0.91, 0.89}, {0.6, 0.61, 0.59}};
    HalfRun h = Halves.half(Halves.identity(List.of(100.0, 200.0), 3), Halves.ON, ratios);
    on = dir.resolve("on.json");
    onAgain = dir.resolve("on-again.json");
    Json.write(on, h);
    Json.write(onAgain, h);
  }

  @Test
  void helpExitsZeroWithTheUsage() {
    assertHelp(run("compare", "--help"), "ceiling compare");
  }

  @Test
  void theMarginIsRequiredAndChecked() {
    assertUsageError(run("compare", on.toString(), onAgain.toString()), "--margin");
    for (String bad : List.of("abc", "5", "100%", "-5/s", "NaN/s", "x%")) {
      Cli.Outcome o = run("compare", on.toString(), onAgain.toString(), "--margin", bad);
      assertUsageError(o, "--margin");
      assertThat(o.errLines().get(0)).as(o.toString()).contains(bad);
    }
  }

  @Test
  void aMissingOrUnreadableFileIsNamed() throws Exception {
    Path none = dir.resolve("none.json");
    assertUsageError(
        run("compare", none.toString(), on.toString(), "--margin", "5%"), "BASELINE: no such file");
    assertUsageError(
        run("compare", on.toString(), none.toString(), "--margin", "5%"),
        "CANDIDATE: no such file");
    Path garbled = dir.resolve("garbled.json");
    Files.writeString(garbled, "{\"arm\": ");
    assertUsageError(
        run("compare", on.toString(), garbled.toString(), "--margin", "5%"), "garbled.json");
  }

  @Test
  void runsOfDifferentPlansAreRefusedWithEveryDifferenceOnOneLine() throws Exception {
    HalfRun other =
        Halves.half(
            Halves.identity(List.of(100.0, 300.0), 2),
            Halves.ON,
            new double[][] {{0.9, 0.9}, {0.5, 0.5}});
    Path otherFile = dir.resolve("other.json");
    Json.write(otherFile, other);
    Cli.Outcome o = run("compare", on.toString(), otherFile.toString(), "--margin", "5%");
    assertUsageError(o, "not runs of the same plan (2 differences)");
    assertThat(o.errLines().get(0)).contains("rates_per_s differs").contains("repeats differs");
  }

  @Test
  void anArmTheRunDoesNotHoldIsNamed() {
    assertUsageError(
        run("compare", on.toString(), onAgain.toString(), "--margin", "5%", "--arm", "off"),
        "--arm is 'off'");
    // Partner: the run's own arm is accepted (the exit code is then the comparison's).
    Cli.Outcome ok =
        run("compare", on.toString(), onAgain.toString(), "--margin", "5%", "--arm", "on");
    assertThat(ok.code()).as(ok.toString()).isNotEqualTo(ExitCode.USAGE);
  }

  @Test
  void aThresholdOutOfRangeIsNamed() {
    assertUsageError(
        run(
            "compare",
            on.toString(),
            onAgain.toString(),
            "--margin",
            "5%",
            "--family-alpha",
            "0.9"),
        "--family-alpha");
  }

  @Test
  void runsWithoutWorkerEvidenceCannotPassButStillWriteTheirFiles() throws Exception {
    Path json = dir.resolve("cmp.json");
    Path html = dir.resolve("cmp.html");
    Cli.Outcome o =
        run(
            "compare",
            on.toString(),
            onAgain.toString(),
            "--margin",
            "50%",
            "--json",
            json.toString(),
            "--html",
            html.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out().lines().findFirst().orElseThrow())
        .startsWith("No: could not show non-inferiority");
    Comparison c = Json.mapper().readValue(json.toFile(), Comparison.class);
    assertThat(c.result().nonInferior()).isFalse();
    assertThat(c.answer()).isEqualTo(o.out().lines().findFirst().orElseThrow());
    assertThat(Files.readString(html)).contains("could not show non-inferiority");
  }
}
