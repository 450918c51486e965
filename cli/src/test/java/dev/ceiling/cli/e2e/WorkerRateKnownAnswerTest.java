package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.verdict.CellRef;
import dev.ceiling.verdict.WorkerRate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The known-answer check itself: a well-planned, narrow answer inside the bound passes, and each
 * way it can be wrong fails at its own step, in order (plan, load, evidence, bound).
 */
class WorkerRateKnownAnswerTest {
  private static final WorkerRateKnownAnswer CHECK = new WorkerRateKnownAnswer(6, 3.0, 0.5, 0.15);

  private static WorkerRate rate(double est, double lo, double hi, int cells) {
    List<CellRef> refs = new ArrayList<>();
    for (int i = 0; i < cells; i++) {
      refs.add(new CellRef("on", 80, i, i, false));
    }
    return cells < 2
        ? new WorkerRate(est, null, null, 0.95, refs, WorkerRate.NOTE)
        : new WorkerRate(est, lo, hi, 0.95, refs, WorkerRate.NOTE);
  }

  @Test
  void aPlannedNarrowAnswerInsideTheBoundPasses() {
    assertThat(CHECK.failure(rate(39.0, 37.5, 40.5, 6), 0.7, 37.4, 41.2)).isNull();
    // No load reading at all is not a reason to refuse the answer.
    assertThat(CHECK.failure(rate(39.0, 37.5, 40.5, 6), Double.NaN, 37.4, 41.2)).isNull();
  }

  @Test
  void tooFewWorkerCellsIsAFailureOfThePlanBeforeAnythingElse() {
    assertThat(CHECK.failure(null, 0.5, 37.4, 41.2)).startsWith("plan: 0 ");
    // Also loaded and wide, but the plan is named first.
    assertThat(CHECK.failure(rate(38.2, 20.2, 56.2, 3), 4.0, 37.4, 41.2)).startsWith("plan: 3 ");
  }

  @Test
  void anOversubscribedMachineIsNamedBeforeTheEvidence() {
    assertThat(CHECK.failure(rate(38.2, 20.2, 56.2, 6), 3.5, 37.4, 41.2)).startsWith("load: 3.50");
  }

  @Test
  void aRightEstimateWithAWideIntervalFailsOnTheEvidence() {
    // The estimate inside the range, the interval too wide to mean anything: evidence, not bound.
    assertThat(CHECK.failure(rate(38.2, 20.2, 56.2, 6), 0.65, 37.4, 41.2)).startsWith("evidence: ");
  }

  @Test
  void aNarrowEstimateOutsideTheToleranceFailsOnTheBound() {
    // Five exchanges per event instead of six: 1.2 times the predicted ceiling.
    assertThat(CHECK.failure(rate(47.5, 46.0, 49.0, 6), 0.65, 37.4, 41.2)).startsWith("bound: ");
    assertThat(CHECK.failure(rate(30.0, 29.0, 31.0, 6), 0.65, 37.4, 41.2)).startsWith("bound: ");
  }
}
