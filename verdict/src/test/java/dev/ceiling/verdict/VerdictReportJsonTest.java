package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.SchemaVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Seals the verdict's JSON with a golden file, under several Locales (decimal comma, Arabic-Indic
 * and Thai digits), and shows the report can be recomputed from its own JSON. Regenerate with
 * {@code -Dceiling.updateGolden=true} after an intended change, and review the diff.
 */
class VerdictReportJsonTest {
  private static final String GOLDEN = "golden/verdict-report.json";
  private static final List<Locale> LOCALES =
      List.of(
          Locale.US,
          Locale.GERMANY,
          Locale.forLanguageTag("ar-EG"),
          Locale.forLanguageTag("th-TH-u-nu-thai"));

  /**
   * Four rates, three repeats; one contaminated treatment cell; a knee at 200/s; an equivalence
   * margin of 0.05, so the equivalence figures are sealed too.
   */
  static CombinedRun scenario() {
    ExperimentIdentity id =
        Fixtures.identity(List.of(100.0, 200.0, 300.0, 400.0), 3).withEquivalenceMargin(0.05);
    double[][] on = {{1.0, 1.0, 0.999}, {0.81, 0.8, 0.79}, {0.55, 0.56, 0.54}, {0.4, 0.41, 0.4}};
    double[][] off = {{1.0, 1.0, 1.0}, {1.0, 0.999, 1.0}, {1.0, 1.0, 0.998}, {0.999, 1.0, 1.0}};
    List<Cell> cells = new ArrayList<>(Fixtures.half(id, ON, on).cells());
    cells.set(
        4,
        VerdictTest.withDelta(cells.get(4), MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE, 3.0)
            .toBuilder()
            .headroom(1.1)
            .build());
    return new CombinedRun(id, Fixtures.half(id, ON, cells), Fixtures.half(id, OFF, off));
  }

  private static String golden() throws IOException {
    try (InputStream in =
        VerdictReportJsonTest.class.getClassLoader().getResourceAsStream(GOLDEN)) {
      return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static void matchesGolden(String json) throws IOException {
    assertThat(json).isEqualTo(golden());
  }

  @Test
  void verdictJsonMatchesTheGoldenFileInEveryLocale() throws IOException {
    if (Boolean.getBoolean("ceiling.updateGolden")) {
      Files.writeString(
          Path.of("src/test/resources", GOLDEN),
          Json.write(Verdict.evaluate(scenario(), VerdictConfig.defaults())),
          StandardCharsets.UTF_8);
    }
    Locale before = Locale.getDefault();
    try {
      for (Locale l : LOCALES) {
        Locale.setDefault(l);
        matchesGolden(Json.write(Verdict.evaluate(scenario(), VerdictConfig.defaults())));
      }
    } finally {
      Locale.setDefault(before);
    }

    // Mutant: one figure formatted with the default Locale (German decimal comma) instead of
    // Locale.ROOT, as a formatter that forgets the Locale would write it.
    String mutant =
        Json.write(Verdict.evaluate(scenario(), VerdictConfig.defaults()))
            .replace("0.987500", String.format(Locale.GERMANY, "%.6f", 0.9875));
    assertThatThrownBy(() -> matchesGolden(mutant)).isInstanceOf(AssertionError.class);
  }

  @Test
  void theGoldenScenarioSaysWhatItShould() {
    VerdictReport v = Verdict.evaluate(scenario(), VerdictConfig.defaults());
    assertThat(v.established()).isTrue();
    assertThat(v.excluded())
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.reasons())
                    .extracting(CellProblem::kind)
                    .containsExactly(ProblemKind.ADMISSION_UNAVAILABLE, ProblemKind.LOW_HEADROOM));
    assertThat(v.knee().kneePerS()).isEqualTo(200.0);
    assertThat(v.knee().highestPassingPerS()).isEqualTo(100.0);
    assertThat(v.rates()).extracting(RateRow::separated).containsExactly(false, true, true, true);
  }

  @Test
  void theVerdictReadsBackEqual() throws ReportFormatException {
    VerdictReport v = Verdict.evaluate(scenario(), VerdictConfig.defaults());
    assertThat(Json.read(Json.write(v), "verdict", VerdictReport.class)).isEqualTo(v);
  }

  private static void recomputesFromItsOwnJson(String json) throws ReportFormatException {
    ExperimentReport read = Json.read(json, "report.json", ExperimentReport.class);
    assertThat(read.recompute()).isEqualTo(read.verdict());
  }

  @Test
  void theReportCanBeRecomputedFromItsJsonAlone() throws ReportFormatException {
    ExperimentReport r = ExperimentReport.of(scenario(), VerdictConfig.defaults());
    String json = Json.write(r);
    recomputesFromItsOwnJson(json);
    assertThat(Json.read(json, "report.json", ExperimentReport.class)).isEqualTo(r);

    // Mutant: a report whose stored verdict was not computed from its cells (a raw cell edited
    // after the verdict was written).
    CombinedRun run = scenario();
    HalfRun edited =
        Fixtures.mapCells(
            run.treatment(),
            c ->
                c.sequence() == 9
                    ? c.toBuilder().accepted(4000).acceptedInWindow(4000).build()
                    : c);
    ExperimentReport tampered =
        new ExperimentReport(
            r.schemaVersion(), r.identity(), edited, r.control(), r.verdict(), r.model());
    assertThatThrownBy(() -> recomputesFromItsOwnJson(Json.write(tampered)))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void aSingleArmReportHasNoControlAndSaysSkipped() throws ReportFormatException {
    ExperimentReport r =
        ExperimentReport.ofSingleArm(scenario().treatment(), VerdictConfig.defaults());
    assertThat(r.control()).isNull();
    assertThat(r.verdict().controlMarker()).isEqualTo("skipped");
    recomputesFromItsOwnJson(Json.write(r));
    assertThatThrownBy(
            () ->
                new ExperimentReport(
                    SchemaVersion.CURRENT,
                    r.identity(),
                    r.treatment(),
                    scenario().control(),
                    r.verdict(),
                    false))
        .hasMessage("verdict.control_marker must be 'ran' for these halves, got 'skipped'");
  }

  @Test
  void reportFieldsAreSnakeCase() {
    String json = Json.write(Verdict.evaluate(scenario(), VerdictConfig.defaults()));
    Consumer<String> has = k -> assertThat(json).contains("\"" + k + "\"");
    List.of(
            "control_marker",
            "worker_rate",
            "comparable_rates",
            "p_adjusted",
            "lower_bound",
            "interval_level",
            "not_comparable_reason",
            "excludes_evidence",
            "highest_passing_per_s")
        .forEach(has);
  }
}
