package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Judging the halves, and the outcome each combination of phase results gives. */
class JudgingTest {
  static final ReportWriter.Written WRITTEN =
      new ReportWriter.Written(Path.of("report.json"), List.of(), null);
  static final ReportWriter.Written WRITE_FAILED =
      new ReportWriter.Written(null, List.of(), "cannot write the report: disk full");

  private static HalfRun half(String arm, ExperimentIdentity id) {
    List<Cell> cells =
        List.of(
            HalfRuns.cell(arm, 100, 0, 0, 1, 1).build(),
            HalfRuns.cell(arm, 100, 1, 1, 1, 1).build());
    return HalfRuns.half(id, arm, cells);
  }

  private static final ExperimentIdentity ID = HalfRuns.identity(List.of(100.0), 2, 1);

  @Test
  void twoHalvesAreCombinedAndOneIsReportedAlone() {
    Judging.Judged both =
        Judging.judge(
            Map.of("on", half("on", ID), "off", half("off", ID)),
            "on",
            "off",
            VerdictConfig.defaults());
    Judging.Judged one =
        Judging.judge(Map.of("on", half("on", ID)), "on", "off", VerdictConfig.defaults());

    assertThat(both.problem()).isNull();
    assertThat(both.report().control()).isNotNull();
    assertThat(one.problem()).isNull();
    assertThat(one.report().control()).isNull();
    assertThat(Judging.judge(Map.of(), "on", "off", VerdictConfig.defaults()))
        .isEqualTo(new Judging.Judged(null, null));
  }

  @Test
  void halvesOfDifferentExperimentsAreNotCombined() {
    ExperimentIdentity other = HalfRuns.identity(List.of(100.0), 3, 1);

    Judging.Judged j =
        Judging.judge(
            Map.of("on", half("on", ID), "off", half("off", other)),
            "on",
            "off",
            VerdictConfig.defaults());

    assertThat(j.report()).isNull();
    assertThat(j.problem()).startsWith("the halves cannot be combined: ");
  }

  @Test
  void theOutcomeOfEachCombinationOfPhaseResults() {
    Judging.Judged judged =
        Judging.judge(
            Map.of("on", half("on", ID), "off", half("off", ID)),
            "on",
            "off",
            VerdictConfig.defaults());
    Outcome verdict =
        judged.report().verdict().established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
    Judging.Judged none = new Judging.Judged(null, null);
    Judging.Judged notCombined = new Judging.Judged(null, "the halves cannot be combined: x");

    assertThat(Judging.outcome(Outcome.ESTABLISHED, judged, WRITTEN)).isEqualTo(verdict);
    // Arms that stopped keep their outcome whatever the verdict says...
    assertThat(Judging.outcome(Outcome.BAD_INPUT, judged, WRITTEN)).isEqualTo(Outcome.BAD_INPUT);
    assertThat(Judging.outcome(Outcome.INFRASTRUCTURE, none, ReportWriter.Written.NOTHING))
        .isEqualTo(Outcome.INFRASTRUCTURE);
    // ...but halves that do not combine, and a report that was not written, decide.
    assertThat(Judging.outcome(Outcome.INFRASTRUCTURE, notCombined, ReportWriter.Written.NOTHING))
        .isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(Judging.outcome(Outcome.ESTABLISHED, judged, WRITE_FAILED))
        .isEqualTo(Outcome.INFRASTRUCTURE);
    // Every arm ran and nothing was measured: never a pass.
    assertThat(Judging.outcome(Outcome.ESTABLISHED, none, ReportWriter.Written.NOTHING))
        .isEqualTo(Outcome.INFRASTRUCTURE);
  }
}
