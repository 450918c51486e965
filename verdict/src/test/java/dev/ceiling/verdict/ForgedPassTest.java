package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Crafted inputs that a verdict without its checks would call ESTABLISHED on data where the arms do
 * not differ. Each test also shows, on the same data, that the statistics alone would have
 * separated, so the check under test is what refuses it (its mutant: the same data with the check's
 * finding removed).
 */
class ForgedPassTest {
  private static final List<Double> RATES = List.of(100.0, 200.0, 300.0, 400.0);

  /** Both arms the same: near 1.0 with a little spread at every rate, four repeats. */
  private static final double[][] SAME = {
    {1.0, 0.999, 1.0, 0.998},
    {0.999, 1.0, 0.998, 1.0},
    {1.0, 0.998, 0.999, 1.0},
    {0.998, 1.0, 1.0, 0.999},
  };

  private static List<FailureKind> kinds(VerdictReport v) {
    return v.failures().stream().map(Failure::kind).toList();
  }

  private static RateRow row(VerdictReport v, double rate) {
    return v.rates().stream().filter(r -> r.offeredPerS() == rate).findFirst().orElseThrow();
  }

  // --- 1. the cells are the plan ----------------------------------------------------------------

  /** Six lower "re-runs" at 400/s kept in the treatment half because they looked good. */
  private static CombinedRun withReRuns() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    List<Cell> on = new ArrayList<>(Fixtures.half(id, ON, SAME).cells());
    double[] reRuns = {0.90, 0.91, 0.89, 0.90, 0.92, 0.90};
    for (int i = 0; i < reRuns.length; i++) {
      on.add(Fixtures.cell(ON, 400.0, 4 + i, 16 + i, reRuns[i]));
    }
    return new CombinedRun(id, Fixtures.half(id, ON, on), Fixtures.half(id, OFF, SAME));
  }

  @Test
  void extraCellsOutsideThePlanAreRefusedAndEachIsListed() {
    VerdictReport v = Verdict.evaluate(withReRuns(), VerdictConfig.defaults());
    assertThat(v.established()).isFalse();
    List<String> notPlan =
        v.failures().stream()
            .filter(f -> f.kind() == FailureKind.NOT_THE_PLAN)
            .map(Failure::message)
            .toList();
    assertThat(notPlan).hasSize(12); // six cells outside the plan, six sequences past its end
    assertThat(notPlan)
        .contains(
            "the 'on' half: cell at sequence 16 (400/s repeat 4) is not in the plan (4 rates x 4"
                + " repeats); only the planned cells can be compared");
  }

  @Test
  void mutantWithoutThePlanCheckTheReRunsWouldSeparate() {
    // The statistics on the same cells separate at 400/s: only the plan check stops the pass.
    VerdictReport v = Verdict.evaluate(withReRuns(), VerdictConfig.defaults());
    assertThat(row(v, 400.0).separated()).isTrue();
    assertThat(kinds(v)).containsOnly(FailureKind.NOT_THE_PLAN);
  }

  @Test
  void missingCellsAreListedWhateverTheFileSaysAboutCompleteness() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    List<Cell> on = new ArrayList<>(Fixtures.half(id, ON, SAME).cells());
    on.remove(15);
    on.remove(14);
    HalfRun half = Fixtures.half(id, ON, on);
    assertThat(half.complete()).isTrue(); // the file claims it
    VerdictReport v =
        Verdict.evaluate(
            new CombinedRun(id, half, Fixtures.half(id, OFF, SAME)), VerdictConfig.defaults());
    assertThat(v.failures())
        .filteredOn(f -> f.kind() == FailureKind.INCOMPLETE)
        .singleElement()
        .extracting(Failure::message)
        .isEqualTo(
            "the 'on' half is missing 2 planned cell(s): 400/s repeat 2, 400/s repeat 3; a"
                + " partial dataset is not the planned experiment");
  }

  @Test
  void cellsThatAllSaySequenceZeroAreRefused() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    HalfRun on =
        Fixtures.mapCells(Fixtures.half(id, ON, SAME), c -> c.toBuilder().sequence(0).build());
    VerdictReport v =
        Verdict.evaluate(
            new CombinedRun(id, on, Fixtures.half(id, OFF, SAME)), VerdictConfig.defaults());
    assertThat(v.established()).isFalse();
    assertThat(v.failures())
        .extracting(Failure::message)
        .contains(
            "the 'on' half: sequence 0 is used by more than one cell; only the planned cells can"
                + " be compared");
  }

  @Test
  void mutantThePlannedHalvesHaveNoPlanFailure() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    VerdictReport v =
        Verdict.evaluate(
            new CombinedRun(id, Fixtures.half(id, ON, SAME), Fixtures.half(id, OFF, SAME)),
            VerdictConfig.defaults());
    assertThat(kinds(v)).containsOnly(FailureKind.NOT_SEPARATED);
  }

  // --- 2. accepted_in_window is bounded ---------------------------------------------------------

  /** The control's 400/s cells claim 1.20 in the window; the treatment sits at 1.0. */
  private static CombinedRun inflatedControl(long warmupSlots) {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    HalfRun off =
        Fixtures.mapCells(
            Fixtures.half(id, OFF, SAME),
            c ->
                c.offeredPerS() == 400.0
                    ? c.toBuilder()
                        .acceptedInWindow(Math.round(c.attempted() * (1.2 - c.repeat() * 0.001)))
                        .warmupSlotsSent(warmupSlots)
                        .build()
                    : c);
    return new CombinedRun(id, Fixtures.half(id, ON, SAME), off);
  }

  @Test
  void moreAnswersInTheWindowThanEventsSentIsImpossible() {
    VerdictReport v = Verdict.evaluate(inflatedControl(0), VerdictConfig.defaults());
    assertThat(v.established()).isFalse();
    assertThat(v.fatal())
        .extracting(FatalProblem::kind)
        .contains(ProblemKind.IMPOSSIBLE_MEASUREMENT);
    assertThat(v.fatal().get(0).message())
        .startsWith("accepted_in_window 4800 exceeds the events sent (4000 attempted + 0 warm-up");
  }

  @Test
  void mutantWithEnoughWarmUpSlotsSentTheSameCountsAreAMeasurement() {
    // 1,000 warm-up slots can answer inside the window: the bound holds, and the inflated
    // control then separates, which is why the bound must be checked.
    VerdictReport v = Verdict.evaluate(inflatedControl(1000), VerdictConfig.defaults());
    assertThat(v.fatal()).isEmpty();
    assertThat(row(v, 400.0).separated()).isTrue();
  }

  @Test
  void countsThatDoNotBalanceAreImpossible() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    Cell c =
        Fixtures.cell(ON, 100.0, 0, 0, 1.0).toBuilder().unacknowledged(5).attempted(1005).build();
    Cell unbalanced = c.toBuilder().unacknowledged(0).build();
    assertThat(CellProblems.of(c, id, VerdictConfig.defaults()))
        .extracting(CellProblem::kind)
        .doesNotContain(ProblemKind.IMPOSSIBLE_MEASUREMENT);
    assertThat(CellProblems.of(unbalanced, id, VerdictConfig.defaults()))
        .extracting(CellProblem::message)
        .contains(
            "accepted + rejected + unacknowledged = 1000 + 0 + 0 = 1000, but 1005 events were"
                + " attempted: every sent event is accepted, rejected or unanswered, so the counts"
                + " are broken");
  }

  @Test
  void aCellThatDidNotRecordItsWarmUpIsNotEvidence() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    Cell c = Fixtures.cell(ON, 100.0, 0, 0, 1.0);
    assertThat(CellProblems.of(c, id, VerdictConfig.defaults())).isEmpty();
    assertThat(
            CellProblems.of(
                c.toBuilder().warmupSlotsSent(null).build(), id, VerdictConfig.defaults()))
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.IN_WINDOW_UNBOUNDED);
  }

  // --- 7. the control's audit path must be off ---------------------------------------------------

  @Test
  void auditErrorsInACellWithNoAuditPathAreFatalAndDoNotBlameAWorker() {
    ExperimentIdentity id = Fixtures.identity(RATES, 4);
    Cell control = Fixtures.cell(OFF, 100.0, 0, 0, 1.0);
    Cell writes = VerdictTest.withDelta(control, MetricRole.AUDIT_WRITE_ERRORS, 3.0);
    Cell enqueues = VerdictTest.withDelta(control, MetricRole.AUDIT_ENQUEUE_ERRORS, 2.0);
    for (Cell c : List.of(writes, enqueues)) {
      List<CellProblem> p = CellProblems.of(c, id, VerdictConfig.defaults());
      assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.CONTROL_AUDIT_LIVE);
      assertThat(p.get(0).kind().fatal()).isTrue();
      assertThat(p.get(0).message())
          .contains("the 'off' arm's audit path is live")
          .doesNotContain("worker is gone");
    }
    // Mutant: the same control cell with its error counters at zero is clean.
    assertThat(CellProblems.of(control, id, VerdictConfig.defaults())).isEmpty();
  }
}
