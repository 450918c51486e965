package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thresholds that decide are Ceiling's, never a file's. A report carrying family alpha 0.5,
 * headroom 1.0 and steady tolerance 0.99 is consistent with itself and ESTABLISHED by its own
 * thresholds on data where the arms do not differ; {@code report} must judge it with the defaults,
 * show both, and exit 1.
 */
class ThresholdContractTest {
  @TempDir Path dir;

  /** The file's thresholds: each one looser than any flag accepts. */
  static final VerdictConfig FORGED = new VerdictConfig(0.5, 0.99, 0.95, 1.0, 2, 0.0, 0.02);

  /** One rate, three repeats; control 0.003 above the treatment, one-sided p about 0.26. */
  static ExperimentReport noRealDifference(VerdictConfig cfg) throws Exception {
    ExperimentIdentity id = Halves.identity(List.of(100.0), 3);
    return ExperimentReport.of(
        Combine.combine(
            Halves.half(id, Halves.ON, new double[][] {{0.99, 0.99, 1.0}}),
            Halves.half(id, Halves.OFF, new double[][] {{1.0, 0.99, 1.0}})),
        cfg);
  }

  @Test
  void reportDecidesWithCeilingsThresholdsAndShowsTheFilesBeside() throws Exception {
    ExperimentReport forged = noRealDifference(FORGED);
    // Mutant partner: judged by its own thresholds (what report did before), the file passes.
    assertThat(forged.verdict().established()).isTrue();
    assertThat(forged.recompute()).isEqualTo(forged.verdict());
    Path file = dir.resolve("forged.json");
    Json.write(file, forged);

    Cli.Outcome o = run("report", file.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out())
        .contains("thresholds: " + VerdictConfig.defaults().describe() + " (Ceiling's defaults)")
        .contains("the file's thresholds, NOT used to decide: " + FORGED.describe())
        .contains("verdict: NOT ESTABLISHED");
  }

  @Test
  void aFileWithCeilingsThresholdsShowsThemOnceAndCanPass() throws Exception {
    // The partner that shows exit 0 is reachable: a real difference passes with the defaults.
    ExperimentIdentity id = Halves.identity(List.of(100.0), 3);
    ExperimentReport real =
        ExperimentReport.of(
            Combine.combine(
                Halves.half(id, Halves.ON, new double[][] {{0.80, 0.81, 0.79}}),
                Halves.half(id, Halves.OFF, new double[][] {{1.0, 0.99, 1.0}})),
            VerdictConfig.defaults());
    Path file = dir.resolve("real.json");
    Json.write(file, real);
    Cli.Outcome o = run("report", file.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.ESTABLISHED);
    assertThat(o.out()).contains("(Ceiling's defaults)").doesNotContain("the file's thresholds");
  }

  @Test
  void tighterThresholdsOnlyByFlagAndPrinted() throws Exception {
    Path file = dir.resolve("forged.json");
    Json.write(file, noRealDifference(FORGED));
    Cli.Outcome o = run("report", file.toString(), "--family-alpha", "0.01");
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out()).contains("family_alpha=0.01 ").contains("NOT Ceiling's defaults");
  }

  @Test
  void looseThresholdsAreRefusedNamingTheFlag() throws Exception {
    Path file = dir.resolve("forged.json");
    Json.write(file, noRealDifference(FORGED));
    String f = file.toString();
    assertUsageError(run("report", f, "--family-alpha", "0.5"), "--family-alpha");
    assertUsageError(run("report", f, "--min-headroom", "1.0"), "--min-headroom");
    assertUsageError(run("report", f, "--steady-tolerance", "0.99"), "--steady-tolerance");
    assertUsageError(run("combine", f, f, "--family-alpha", "0.11"), "--family-alpha");
    assertUsageError(run("experiment", "--steady-tolerance", "0.2"), "--steady-tolerance");
    // The limits themselves are accepted (exit 1 here: the data do not differ).
    assertThat(run("report", f, "--family-alpha", "0.1", "--min-headroom", "1.5").code())
        .isEqualTo(ExitCode.NOT_ESTABLISHED);
  }

  @Test
  void combineDecidesWithTheDefaultsAndPrintsThem() throws Exception {
    ExperimentReport forged = noRealDifference(FORGED);
    Path t = dir.resolve("t.json");
    Path c = dir.resolve("c.json");
    Json.write(t, forged.treatment());
    Json.write(c, forged.control());
    Cli.Outcome o = run("combine", t.toString(), c.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out()).contains("thresholds: " + VerdictConfig.defaults().describe());
  }
}
