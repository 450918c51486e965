package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.ExperimentReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The equivalence margin is declared with the plan: it enters both arms' identity before the first
 * cell, the report answers it, a bad one is refused before any relay starts, and a resume cannot
 * choose another one. A fake rig and a fake sweep: no relay, no sockets.
 */
class EquivalenceMarginExperimentTest {
  @TempDir Path dir;
  final FakeRig rig = new FakeRig();
  final FakeSweep sweep = new FakeSweep();

  private Path out() {
    return dir.resolve("run");
  }

  private Experiment.Builder options() throws Exception {
    return Experiment.builder()
        .profile(RelayProfile.builtIn("reference"))
        .rates(List.of(100.0, 200.0))
        .duration(Duration.ofSeconds(1))
        .repeats(2)
        .outDir(out())
        .installShutdownHook(false);
  }

  @Test
  void theMarginIsInBothArmsIdentityBeforeTheFirstCellAndTheReportAnswersIt() throws Exception {
    ExperimentResult r = options().equivalenceMargin(0.05).build(rig, sweep).run();

    assertThat(r.problems()).isEmpty();
    assertThat(sweep.calls)
        .extracting(c -> c.identity().equivalenceMargin())
        .containsExactly(0.05, 0.05);
    HalfRun on = Json.read(out().resolve("half-on.json"), HalfRun.class);
    assertThat(on.identity().equivalenceMargin()).isEqualTo(0.05);
    ExperimentReport report = Json.read(r.reportJson(), ExperimentReport.class);
    assertThat(report.verdict().equivalence()).isNotNull();
    assertThat(report.verdict().equivalence().margin()).isEqualTo(0.05);
    assertThat(report.verdict().equivalence().rates()).hasSize(2);
  }

  @Test
  void withoutAMarginTheRunAsksNoEquivalenceQuestion() throws Exception {
    ExperimentResult r = options().build(rig, sweep).run();

    assertThat(sweep.calls).allSatisfy(c -> assertThat(c.identity().equivalenceMargin()).isNull());
    assertThat(r.report().verdict().equivalence()).isNull();
  }

  @Test
  void aMarginOutsideZeroToOneIsRefusedBeforeAnyRelayStarts() throws Exception {
    for (double bad : new double[] {0, 1, -0.1, Double.NaN}) {
      assertThatThrownBy(() -> options().equivalenceMargin(bad).repeats(0).build(rig, sweep))
          .isInstanceOf(ExperimentException.class)
          .hasMessage(
              "repeats must be >= 1, got 0; equivalence margin must be in (0, 1) (a fraction of"
                  + " accepted/offered), got "
                  + bad);
    }
    assertThat(rig.started).isEmpty();
  }

  @Test
  void aResumeCannotChooseAnotherMargin() throws Exception {
    Files.createDirectories(out());
    Journal.create(
            out().resolve("journal-on.jsonl"),
            Identities.of(
                    RelayProfile.builtIn("reference"),
                    HalfRuns.rig("on"),
                    List.of(100.0, 200.0),
                    1.0,
                    2,
                    null,
                    SweepOptions.defaults(Path.of("journal.jsonl")).measurement())
                .withEquivalenceMargin(0.05),
            "on")
        .close();

    assertThatThrownBy(() -> options().equivalenceMargin(0.1).resume(true).build(rig, sweep).run())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("equivalence_margin journal 0.05, now 0.1");
    assertThatThrownBy(() -> options().resume(true).build(rig, sweep).run())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("equivalence_margin journal 0.05, now null");
    assertThat(rig.started).isEmpty();
    // Partner: the margin the run was started with resumes it.
    ExperimentResult r = options().equivalenceMargin(0.05).resume(true).build(rig, sweep).run();
    assertThat(r.problems()).isEmpty();
    assertThat(r.report().identity().equivalenceMargin()).isEqualTo(0.05);
  }
}
