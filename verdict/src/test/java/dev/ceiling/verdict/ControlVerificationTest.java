package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ControlCheckReading;
import dev.ceiling.core.model.DrainTimeout;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MetricRole;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The control arm verified positive, not assumed; and the drain that ran out of time. */
class ControlVerificationTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final ExperimentIdentity ID = Fixtures.identity(List.of(100.0, 200.0), 3);

  private static List<CellProblem> problems(Cell c) {
    return CellProblems.of(c, ID, CFG);
  }

  private static Cell control() {
    return Fixtures.cell(OFF, 100.0, 0, 0, 1.0);
  }

  private static Cell without(Cell c, MetricRole... roles) {
    Map<String, Double> d = new HashMap<>(c.counterDeltas());
    for (MetricRole r : roles) {
      d.remove(r.key());
    }
    return c.toBuilder().counterDeltas(d).build();
  }

  @Test
  void aControlCellWhoseAuditCounterMovedIsFatalNamingBothFigures() {
    Cell moved = VerdictTest.withDelta(control(), MetricRole.AUDIT_LOG_COUNT, 1000.0);
    List<CellProblem> p = problems(moved);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.CONTROL_AUDIT_MOVED);
    assertThat(p.get(0).kind().fatal()).isTrue();
    assertThat(p.get(0).message())
        .isEqualTo(
            "in the control arm 'off', which has no audit path, the audit completion counter"
                + " (audit_log_count) moved by 1000 and the audit row count (audit_rows) by not"
                + " exposed: audit work happened where the path is off, so the arm is not the"
                + " control it claims to be");
    // Partner: the same cell with the counter flat is clean and verified.
    assertThat(problems(control())).isEmpty();
  }

  @Test
  void aControlCellWhoseAuditRowsGrewIsFatal() {
    Cell rows = VerdictTest.withDelta(control(), MetricRole.AUDIT_ROWS, 5.0);
    assertThat(problems(rows))
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.CONTROL_AUDIT_MOVED);
    assertThat(problems(rows).get(0).message())
        .contains("(audit_log_count) moved by 0")
        .contains("(audit_rows) by 5");
    Cell flat = VerdictTest.withDelta(control(), MetricRole.AUDIT_ROWS, 0.0);
    assertThat(problems(flat)).isEmpty();
  }

  @Test
  void theTreatmentArmsAuditFiguresMoveFreely() {
    Cell on = Fixtures.cell(ON, 100.0, 0, 0, 1.0);
    Cell moving = VerdictTest.withDelta(on, MetricRole.AUDIT_LOG_COUNT, 1000.0);
    assertThat(problems(VerdictTest.withDelta(moving, MetricRole.AUDIT_ROWS, 1000.0))).isEmpty();
    // Nor is the treatment ever "not verified": the mark belongs to the arm without the path.
    assertThat(problems(without(on, MetricRole.AUDIT_LOG_COUNT))).isEmpty();
  }

  @Test
  void aControlCellThatExposesNeitherFigureIsMarkedNotVerifiedButStaysEvidence() {
    Cell blind = without(control(), MetricRole.AUDIT_LOG_COUNT);
    List<CellProblem> p = problems(blind);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.CONTROL_NOT_VERIFIED);
    assertThat(p.get(0).excludesEvidence()).isFalse();
    assertThat(p.get(0).kind().fatal()).isFalse();
    assertThat(p.get(0).message()).contains("the profile declares no control_check");
  }

  @Test
  void aControlCheckThatPrintsTheSameVerifiesAndOneThatChangesIsFatal() {
    Cell blind = without(control(), MetricRole.AUDIT_LOG_COUNT);
    Cell same =
        blind.toBuilder().controlCheck(new ControlCheckReading("audit=7", 0, "audit=7", 0)).build();
    assertThat(problems(same)).isEmpty();
    Cell grew =
        blind.toBuilder()
            .controlCheck(new ControlCheckReading("audit=7", 0, "audit=107", 0))
            .build();
    List<CellProblem> p = problems(grew);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.CONTROL_CHECK_CHANGED);
    assertThat(p.get(0).kind().fatal()).isTrue();
    assertThat(p.get(0).message())
        .isEqualTo(
            "the profile's control_check printed \"audit=7\" (exit 0) before this cell and"
                + " \"audit=107\" (exit 0) after it: the code path is live in the control arm"
                + " 'off'");
    Cell exitChanged =
        blind.toBuilder().controlCheck(new ControlCheckReading("", 1, "", 0)).build();
    assertThat(problems(exitChanged))
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.CONTROL_CHECK_CHANGED);
    Cell couldNotRun =
        blind.toBuilder()
            .controlCheck(new ControlCheckReading("cannot run [x]: no such file", null, "", null))
            .build();
    assertThat(problems(couldNotRun))
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.CONTROL_NOT_VERIFIED);
    assertThat(problems(couldNotRun).get(0).message()).contains("no such file");
  }

  @Test
  void theHeadlineSaysWhenTheControlWasNotVerifiedPositive() {
    CombinedRun run = Fixtures.separating();
    VerdictReport verified = Verdict.evaluate(run, CFG);
    assertThat(verified.established()).isTrue();
    assertThat(verified.headline()).isEqualTo("ESTABLISHED (control ran)");
    assertThat(verified.controlVerifiedPositive()).isTrue();
    CombinedRun blind =
        new CombinedRun(
            run.identity(),
            run.treatment(),
            Fixtures.mapCells(run.control(), c -> without(c, MetricRole.AUDIT_LOG_COUNT)));
    VerdictReport v = Verdict.evaluate(blind, CFG);
    assertThat(v.established()).isTrue();
    assertThat(v.headline()).isEqualTo("ESTABLISHED (control ran, not verified positive)");
    assertThat(v.notes()).anyMatch(n -> n.startsWith("the control was not verified positive: 18"));
    CombinedRun live =
        new CombinedRun(
            run.identity(),
            run.treatment(),
            Fixtures.mapCells(
                run.control(),
                c ->
                    VerdictTest.withDelta(
                        c, MetricRole.AUDIT_LOG_COUNT, (double) c.acceptedInWindow())));
    VerdictReport refused = Verdict.evaluate(live, CFG);
    assertThat(refused.established()).isFalse();
    assertThat(refused.headline()).isEqualTo("NOT ESTABLISHED (control ran)");
    assertThat(refused.fatal())
        .extracting(FatalProblem::kind)
        .containsOnly(ProblemKind.CONTROL_AUDIT_MOVED);
  }

  @Test
  void aCellAfterADrainThatTimedOutIsExcludedNamingTheQueueDepth() {
    Cell on = Fixtures.cell(ON, 100.0, 0, 0, 1.0);
    Cell inherited = on.toBuilder().drainTimeout(new DrainTimeout(2.0, 812.0, 0.0, 900.0)).build();
    List<CellProblem> p = problems(inherited);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.DRAIN_TIMEOUT);
    assertThat(p.get(0).excludesEvidence()).isTrue();
    assertThat(p.get(0).message())
        .isEqualTo(
            "the drain before this cell gave up after 2 s: audit queue depth 812 (resting depth"
                + " 0), 900 events still outstanding; the cell started on the previous cell's"
                + " backlog, so it is not an independent draw");
    // Partner: the same cell after a drain that finished.
    assertThat(problems(on)).isEmpty();
  }
}
