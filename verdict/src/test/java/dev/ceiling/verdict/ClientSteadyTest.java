package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static dev.ceiling.verdict.Fixtures.SIX_RATES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client-side steady state and ceiling, worked by hand at 100 events/s over the fixtures' 10 s
 * window: 1000 offered, 500 a half, a tolerance of max(0.05 x 1000, 10) = 50 events. Each rule has
 * a cell that breaks it alone, so a rule set without it would read that cell steady.
 */
class ClientSteadyTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final ExperimentIdentity ID = Fixtures.identity(SIX_RATES, 3);

  /** A clean control cell (no queue) at 100/s whose warm-up sent {@code warmup} slots. */
  private static CellBuilder base(long warmup, long inWindow, long accepted) {
    return Fixtures.cell(OFF, 100.0, 0, 0, accepted / 1000.0).toBuilder()
        .warmupSlotsSent(warmup)
        .acceptedInWindow(inWindow);
  }

  /** The relay held the 200 warm-up answers and released them in the window's first half. */
  static Cell craftedBacklog() {
    return base(200, 1198, 998).windowCounts(698, 500, 998, 2, 200, 2, 2).build();
  }

  private static List<ProblemKind> kinds(Cell c) {
    return CellProblems.of(c, ID, CFG, true).stream().map(CellProblem::kind).toList();
  }

  private static List<String> failures(Cell c) {
    return ClientSteady.read(c, CFG).failures();
  }

  @Test
  void theToleranceIsTheSteadyFractionOfTheOfferWithAFloor() {
    assertThat(ClientSteady.toleranceEvents(craftedBacklog(), CFG)).isEqualTo(50.0);
    Cell small = Fixtures.cell(OFF, 100.0, 0, 0, 1.0).toBuilder().durationRequestedS(1).build();
    assertThat(ClientSteady.toleranceEvents(small, CFG)).isEqualTo(10.0);
  }

  @Test
  void aCellBelowTheCeilingIsSteadyFlatAndNotSaturated() {
    Cell c = base(200, 1000, 998).windowCounts(498, 502, 990, 8, 10, 12, 8).build();
    ClientSteady.Reading r = ClientSteady.read(c, CFG);
    assertThat(r.failures()).isEmpty();
    assertThat(r.saturated()).isFalse();
    assertThat(ClientSteady.ceilingPerS(c, CFG)).isNull();
    assertThat(kinds(c)).isEmpty();
    // 990 own answers + min(10 to warm-up slots, 8 handed on) = 998.
    assertThat(c.acceptedOverOffered()).isEqualTo(0.998);
  }

  @Test
  void aSaturatedCellGrowsAtOfferedMinusAnsweredAndGivesTheCeiling() {
    // A ceiling of 60/s: 300 answers a half, the backlog grows by 500 - 300 = 200 a half.
    Cell c = base(400, 600, 600).windowCounts(300, 300, 200, 800, 400, 600, 800).build();
    ClientSteady.Reading r = ClientSteady.read(c, CFG);
    assertThat(r.failures()).isEmpty();
    assertThat(r.saturated()).isTrue();
    assertThat(ClientSteady.ceilingPerS(c, CFG)).isEqualTo(60.0);
    assertThat(kinds(c)).isEmpty();
  }

  @Test
  void aCraftedBacklogIsCappedAtOneAndExcludedAsNotSteady() {
    Cell c = craftedBacklog();
    assertThat(c.acceptedOverOffered()).isEqualTo(1.0);
    assertThat(failures(c))
        .containsExactly(
            "the window's halves disagree: 698 OK-true answers in the first half, 500 in the"
                + " second (tolerance 50 events)",
            "the outstanding count fell (200 at the window's start, 2 at its middle, 2 at its"
                + " end): answers to an earlier backlog landed in the window (tolerance 50"
                + " events)");
    List<CellProblem> problems = CellProblems.of(c, ID, CFG, true);
    assertThat(problems)
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.CLIENT_NOT_STEADY);
    assertThat(CellProblems.excludes(problems)).isTrue();
    assertThat(problems.get(0).message())
        .startsWith("not steady from the client: the window's halves disagree")
        .endsWith("with no queue reading this is the cell's steady check, so it is excluded");
    assertThat(CellProblems.clientSteady(c, CFG)).isFalse();
    assertThat(ClientSteady.ceilingPerS(c, CFG)).isNull();
  }

  @Test
  void theSameBacklogJudgedByTheOldRuleReadsAboveOneAndIsEvidence() {
    // Partner: without the window counts the ratio credits every answer and nothing excludes it.
    Cell old = craftedBacklog().toBuilder().noWindowCounts().build();
    assertThat(old.acceptedOverOffered()).isEqualTo(1.198);
    assertThat(kinds(old)).isEmpty();
    assertThat(CellProblems.clientSteady(old, CFG)).isNull();
  }

  @Test
  void besideAQueueReadingTheClientsReadingOnlyMarksTheCell() {
    Cell c = craftedBacklog().toBuilder().outstandingDelta(0L).build();
    List<CellProblem> client =
        CellProblems.of(c, ID, CFG, true).stream()
            .filter(p -> p.kind() == ProblemKind.CLIENT_NOT_STEADY)
            .toList();
    assertThat(client).hasSize(1);
    assertThat(client.get(0).excludesEvidence()).isFalse();
    assertThat(client.get(0).message())
        .endsWith("a cross-check only: the queue reading decides steadiness");
  }

  @Test
  void aBacklogDrainedEvenlyOverBothHalvesFailsOnlyBecauseTheCountFell() {
    // The relay answered 150/s against an offer of 100/s until a backlog of 200 was gone: the
    // halves agree, and each grew by offered minus answered; only the fall gives it away.
    Cell c = base(200, 1200, 1000).windowCounts(600, 600, 1000, 0, 200, 100, 0).build();
    assertThat(failures(c))
        .containsExactly(
            "the outstanding count fell (200 at the window's start, 100 at its middle, 0 at its"
                + " end): answers to an earlier backlog landed in the window (tolerance 50"
                + " events)");
    assertThat(c.acceptedOverOffered()).isEqualTo(1.0);
  }

  @Test
  void growthAtTwoRatesFailsEvenWhenEachHalfIsWithinTolerance() {
    // Halves 400 and 450 (50 apart), growths 150 and 0 against 100 and 50 expected (50 off each).
    Cell c = base(200, 850, 850).windowCounts(400, 450, 850, 150, 100, 250, 250).build();
    assertThat(failures(c))
        .containsExactly(
            "the outstanding count grew by 150 in the first half and 0 in the second: neither flat"
                + " nor growing at one rate (tolerance 50 events)");
  }

  @Test
  void growthThatTheAnswersDoNotExplainFails() {
    // 500 answers a half against 500 offered, yet the count grew by 100 in each half.
    Cell c = base(200, 1000, 1000).windowCounts(500, 500, 990, 10, 10, 110, 210).build();
    assertThat(failures(c))
        .containsExactly(
            "the outstanding count grew by 100 in the first half where offered minus answered is 0"
                + " (tolerance 50 events)",
            "the outstanding count grew by 100 in the second half where offered minus answered is"
                + " 0 (tolerance 50 events)");
  }

  @Test
  void halvesThatDoNotAddUpAreAnImpossibleMeasurement() {
    Cell c = base(200, 1000, 1000).windowCounts(500, 499, 990, 10, 10, 10, 10).build();
    assertThat(kinds(c)).contains(ProblemKind.IMPOSSIBLE_MEASUREMENT);
  }

  @Test
  void theTreatmentArmIsExcludedTooWhenItHasNoQueueReading() {
    Cell c = craftedBacklog().toBuilder().arm(ON).build();
    assertThat(CellProblems.excludes(CellProblems.of(c, ID, CFG, true))).isTrue();
  }

  /**
   * A relay that answers 100 events a half OK true and refuses the other 400 with OK false: every
   * answer moves the outstanding count, so it stays flat, and with the OK-false answers counted per
   * half the cell is steady (offered minus answered is 500 - 100 - 400 = 0 in each half).
   */
  private static Cell refusingEvenly() {
    return base(200, 200, 200)
        .rejected(800)
        .unacknowledged(0)
        .windowCounts(100, 100, 198, 2, 2, 2, 2)
        .rejectedInWindowHalves(400, 400)
        .build();
  }

  @Test
  void aRelayThatRefusesWithOkFalseEvenlyIsSteadyWithItsRefusalsCountedPerHalf() {
    ClientSteady.Reading r = ClientSteady.read(refusingEvenly(), CFG);
    assertThat(r.failures()).isEmpty();
    assertThat(r.saturated()).isFalse();
  }

  @Test
  void partnerTheSameCellWithoutItsOkFalseHalvesFailsAsEveryRefusalWouldBeUnanswered() {
    // A cell written before the OK-false halves were recorded: its check counts OK true only.
    Cell old = refusingEvenly().toBuilder().noRejectedInWindowHalves().build();
    assertThat(old.counts().hasRejectedHalves()).isFalse();
    assertThat(failures(old))
        .containsExactly(
            "the outstanding count grew by 0 in the first half where offered minus answered is 400"
                + " (tolerance 50 events)",
            "the outstanding count grew by 0 in the second half where offered minus answered is"
                + " 400 (tolerance 50 events)");
  }

  @Test
  void partnerALimiterThatStartsRefusingHalfwayIsNotSteady() {
    // The same 800 refusals and 200 OK-true answers, but the limiter's budget lasted the first
    // half: 180 accepted and 320 refused, then 20 and 480. The outstanding count is flat in both.
    Cell c =
        base(200, 200, 200)
            .rejected(800)
            .unacknowledged(0)
            .windowCounts(180, 20, 198, 2, 2, 2, 2)
            .rejectedInWindowHalves(320, 480)
            .build();
    assertThat(failures(c))
        .containsExactly(
            "the window's halves disagree: 180 OK-true answers in the first half, 20 in the second"
                + " (tolerance 50 events)",
            "the window's halves disagree: 320 OK-false answers in the first half, 480 in the"
                + " second (tolerance 50 events)");
  }
}
