package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.testing.HalfRuns;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A stop request during a ramp: {@link RampMeasure#steps} asks before every step, so Ctrl-C during
 * a point ramp (a delay sweep cell of up to twelve steps) waits for the running step, not for the
 * ramp; and the cell it interrupts ({@link OneCellSweep.CellStopped}) ends the round's cell loop as
 * interrupted, the cells before it standing. Each with its partner: no stop runs the rule to its
 * end; a failed cell ends the loop as failed, not as interrupted.
 */
class RampStopTest {
  /** From 50/s, doubling, up to 800/s: five steps when every step follows its offer. */
  private static final CeilingRamp.Rule RULE = new CeilingRamp.Rule(50, 2, 0.1, 800, 2);

  private static final ExperimentIdentity IDENTITY =
      HalfRuns.identity(List.of(50.0), 1, RULE.windowS());

  /** A step cell that answered every slot of its window OK true: the ramp goes on. */
  private static Cell followed(ExperimentIdentity identity, int index) {
    double offer = identity.ratesPerS().get(0);
    long half = Math.round(offer * RULE.windowS() / 2);
    return HalfRuns.cell(HalfRuns.ON, offer, 0, index, RULE.windowS(), 1.0)
        .counterDeltas(Map.of())
        .acceptedInWindow(2 * half)
        .windowCounts(half, half, 2 * half, 0, 0, 0, 0)
        .build();
  }

  @Test
  void aStopRequestEndsTheRampBeforeItsNextStep() throws Exception {
    AtomicInteger measured = new AtomicInteger();
    RampMeasure.Measured r =
        RampMeasure.steps(
            RULE,
            IDENTITY,
            (identity, i) -> {
              measured.incrementAndGet();
              return followed(identity, i);
            },
            () -> measured.get() >= 2,
            "cell 1 at 2.0 ms, ",
            ExperimentProgress.NONE);
    assertThat(r.stopped()).isTrue();
    assertThat(measured).hasValue(2);
    assertThat(r.cells()).hasSize(2);
    assertThat(r.ramp().steps())
        .extracting(CeilingRamp.Step::offeredPerS)
        .containsExactly(50.0, 100.0);
  }

  /** Partner: never stopped, the same ramp runs every step its rule gives. */
  @Test
  void withoutAStopTheRampRunsToItsRulesEnd() throws Exception {
    RampMeasure.Measured r =
        RampMeasure.steps(
            RULE, IDENTITY, RampStopTest::followed, () -> false, "", ExperimentProgress.NONE);
    assertThat(r.stopped()).isFalse();
    assertThat(r.ramp().steps())
        .extracting(CeilingRamp.Step::offeredPerS)
        .containsExactly(50.0, 100.0, 200.0, 400.0, 800.0);
    assertThat(r.cells()).hasSize(5);
  }

  @Test
  void aCellStoppedInsideEndsTheLoopAsInterruptedKeepingTheCellsBefore() throws IOException {
    List<Integer> recorded = new ArrayList<>();
    RoundEnd end =
        Rounds.cells(
            List.of(1, 2, 3),
            c -> false,
            new StopSignal(),
            c -> {
              if (c == 2) {
                throw new OneCellSweep.CellStopped("cell 2 stopped after step 1 of its ramp");
              }
              recorded.add(c);
            });
    assertThat(end).isInstanceOf(RoundEnd.Interrupted.class);
    assertThat(recorded).containsExactly(1);
  }

  /** Partner: a cell that failed ends the loop as failed, naming the failure. */
  @Test
  void aCellThatFailedEndsTheLoopAsFailed() throws IOException {
    RoundEnd end =
        Rounds.cells(
            List.of(1, 2),
            c -> false,
            new StopSignal(),
            c -> {
              throw new OneCellSweep.CellFailed("cell 1: the relay went away", null);
            });
    assertThat(end).isInstanceOf(RoundEnd.Failed.class);
    assertThat(((RoundEnd.Failed) end).reason()).contains("the relay went away");
  }
}
