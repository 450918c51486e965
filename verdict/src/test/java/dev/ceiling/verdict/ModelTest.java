package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The model's fill physics, worked by hand: worker 400/s, capacity 1000, 10 s cells, back to back.
 */
class ModelTest {
  private static final ModelConfig BACK_TO_BACK =
      new ModelConfig(List.of(200.0, 300.0, 450.0, 600.0), 10, 3, 1000, 400, 0);

  private static double[] ratios(HalfRun h) {
    return h.cells().stream().mapToDouble(Cell::acceptedOverOffered).toArray();
  }

  /**
   * 450/s is 50/s above the drain rate: the empty queue takes 20 s to fill, so repeats 0 and 1 bank
   * 500 entries each and accept everything; repeat 2 starts full and accepts 400/450.
   */
  private static void fillPhysics(double[] onRatios) {
    assertThat(onRatios)
        .containsExactly(
            new double[] {
              1, 1, 1, 1, 1, 1, 1, 1, 4000.0 / 4500, 4000.0 / 6000, 4000.0 / 6000, 4000.0 / 6000
            },
            offset(1e-12));
  }

  @Test
  void theFirstSaturatingRepeatsBankCreditAndAJustAboveRateFillsOverRepeats() {
    CombinedRun run = Model.simulate(BACK_TO_BACK);
    fillPhysics(ratios(run.treatment()));
    assertThat(run.treatment().cells())
        .extracting(Cell::outstandingDelta)
        .containsExactly(0L, 0L, 0L, 0L, 0L, 0L, 500L, 500L, 0L, 0L, 0L, 0L);
    assertThat(run.treatment().cells().get(8).auditBusyFraction()).isEqualTo(1.0);
    assertThat(run.treatment().cells().get(0).auditBusyFraction()).isEqualTo(0.5);
    assertThat(ratios(run.control())).containsOnly(1.0);
    assertThat(run.control().cells()).allMatch(c -> c.outstandingDelta() == null);

    // Mutant: steady-state arithmetic only (accepted = min(offer, drain)), no fill.
    double[] steadyOnly =
        run.treatment().cells().stream()
            .mapToDouble(c -> Math.min(c.offeredPerS(), 400.0) / c.offeredPerS())
            .toArray();
    assertThatThrownBy(() -> fillPhysics(steadyOnly)).isInstanceOf(AssertionError.class);
  }

  @Test
  void aCellThatStartsEmptyBanksCapacityOverDuration() {
    // A long gap drains the queue: every 600/s cell starts empty and banks the whole channel,
    // +1000/10 s = +100/s of free acceptance (the seed's withdrawn bias).
    CombinedRun run = Model.simulate(new ModelConfig(List.of(600.0), 10, 2, 1000, 400, 1000));
    assertThat(run.treatment().cells())
        .allSatisfy(
            c -> {
              assertThat(c.acceptedPerS()).isEqualTo(500.0);
              assertThat(c.outstandingDelta()).isEqualTo(1000L);
            });
    VerdictReport v = Verdict.evaluate(run, VerdictConfig.defaults());
    assertThat(v.cells())
        .filteredOn(a -> a.cell().arm().equals("on"))
        .allSatisfy(a -> assertThat(a.steady()).isFalse());
    assertThat(v.workerRate()).isNull();
  }

  private static void modelIsNeverEvidence(VerdictReport v) {
    assertThat(v.established()).isFalse();
    assertThat(v.failures()).extracting(Failure::kind).contains(FailureKind.MODEL_NOT_EVIDENCE);
  }

  /**
   * Ported from the seed's model test: with the seed's variation (0.2% per repeat) the model
   * separates above its drain rate and nowhere below it, and stays MODEL_NOT_EVIDENCE. Worker
   * 300/s, capacity 1000, 20 s cells, 5 repeats: 350/s fills in exactly one cell, 400/s is full.
   */
  private static final ModelConfig SEED_LIKE =
      new ModelConfig(
          List.of(100.0, 200.0, 350.0, 400.0), 20, 5, 1000, 300, 0, ModelConfig.SEED_JITTER_STEP);

  private static void separatesWhereTheSeedsDoes(VerdictReport v) {
    assertThat(v.rates())
        .extracting(RateRow::offeredPerS, RateRow::separated)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(100.0, false),
            org.assertj.core.groups.Tuple.tuple(200.0, false),
            org.assertj.core.groups.Tuple.tuple(350.0, true),
            org.assertj.core.groups.Tuple.tuple(400.0, true));
    modelIsNeverEvidence(v);
  }

  @Test
  void withTheSeedsVariationTheModelSeparatesAboveItsDrainRate() {
    VerdictReport v = Model.report(SEED_LIKE, VerdictConfig.defaults()).verdict();
    separatesWhereTheSeedsDoes(v);
    assertThat(v.failures()).extracting(Failure::kind).containsOnly(FailureKind.MODEL_NOT_EVIDENCE);
    assertThat(SEED_LIKE.describe()).endsWith("jitter_step=0.002");

    // Mutant: the model without variation (jitter step 0) does not separate there.
    ModelConfig exact = new ModelConfig(List.of(100.0, 200.0, 350.0, 400.0), 20, 5, 1000, 300, 0);
    VerdictReport flat = Model.report(exact, VerdictConfig.defaults()).verdict();
    assertThatThrownBy(() -> separatesWhereTheSeedsDoes(flat)).isInstanceOf(AssertionError.class);
    // 400/s is constant in both arms without variation: degenerate, it cannot separate.
    assertThat(flat.rates().get(3).difference().degenerate()).isTrue();
  }

  @Test
  void modelOutputIsNeverEvidence() {
    ExperimentReport r = Model.report(BACK_TO_BACK, VerdictConfig.defaults());
    assertThat(r.model()).isTrue();
    modelIsNeverEvidence(r.verdict());
    assertThat(r.treatment().rig().relayInfo())
        .containsEntry(Model.MARKER_KEY, "model, never evidence");
    assertThat(r.verdict().workerRate().estimatePerS()).isEqualTo(400.0);
    assertThat(r.verdict().workerRate().cellsUsed()).hasSize(4);

    // Mutant: the same arithmetic with the marker stripped passes for measurement.
    CombinedRun run = Model.simulate(BACK_TO_BACK);
    CombinedRun stripped =
        new CombinedRun(run.identity(), unmarked(run.treatment()), unmarked(run.control()));
    assertThatThrownBy(
            () -> modelIsNeverEvidence(Verdict.evaluate(stripped, VerdictConfig.defaults())))
        .isInstanceOf(AssertionError.class);
  }

  private static HalfRun unmarked(HalfRun h) {
    return new HalfRun(
        h.schemaVersion(),
        h.identity(),
        h.arm(),
        Fixtures.rig(h.arm()),
        h.startedAt(),
        h.finishedAt(),
        h.complete(),
        h.incompleteReason(),
        h.cells());
  }

  @Test
  void configDescribesItselfAndReportsEveryProblem() {
    assertThat(BACK_TO_BACK.describe())
        .isEqualTo(
            "model: rates=[200, 300, 450, 600] duration_s=10 repeats=3 queue_capacity=1000"
                + " worker_rate_per_s=400 gap_between_cells_s=0 jitter_step=0");
    Consumer<Runnable> bad =
        r -> assertThatThrownBy(r::run).isInstanceOf(IllegalArgumentException.class);
    bad.accept(() -> new ModelConfig(List.of(), 0, 0, 0, 0, -1));
    assertThatThrownBy(() -> new ModelConfig(List.of(2.0, 1.0), 0, 0, 0, 0, -1))
        .hasMessage(
            "rates_per_s must be finite, > 0 and strictly ascending, got [2.0, 1.0]; duration_s"
                + " must be a finite number > 0, got 0.0; repeats must be >= 1, got 0;"
                + " queue_capacity must be >= 1, got 0; worker_rate_per_s must be a finite number"
                + " > 0, got 0.0; gap_between_cells_s must be a finite number >= 0, got -1.0");
  }
}
