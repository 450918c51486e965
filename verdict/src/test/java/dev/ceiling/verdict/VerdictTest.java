package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.CAPACITY;
import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static dev.ceiling.verdict.Fixtures.SIX_RATES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The seed's contract, case by case. Each check is run against the real verdict (must hold) and
 * against a mutant: a deliberately wrong implementation or a deliberately wrong reading of the same
 * data (must be caught by the same check).
 */
class VerdictTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();

  /** Runs {@code check} on the mutant's output and asserts the check catches it. */
  private static void caught(Consumer<VerdictReport> check, VerdictReport mutant) {
    assertThatThrownBy(() -> check.accept(mutant))
        .as("the check must catch the mutant")
        .isInstanceOf(AssertionError.class);
  }

  private static void established(VerdictReport v) {
    assertThat(v.failures()).isEmpty();
    assertThat(v.established()).isTrue();
    assertThat(v.controlMarker()).isEqualTo("ran");
  }

  @Test
  void separatingRunIsEstablishedAtTheSaturatedRatesOnly() {
    VerdictReport v = Verdict.evaluate(Fixtures.separating(), CFG);
    established(v);
    assertThat(v.comparableRates()).isEqualTo(6);
    assertThat(v.rates().stream().filter(RateRow::separated).map(RateRow::offeredPerS))
        .containsExactly(500.0, 600.0);
    RateRow r600 = v.rates().get(5);
    assertThat(r600.difference().estimate()).isCloseTo(1.0 - 0.665, within(0.001));
    assertThat(r600.difference().lowerBound()).isPositive();
    assertThat(r600.difference().intervalLevel()).isEqualTo(1 - 0.05 / 6);
    assertThat(v.notes()).contains(Verdict.MASKED_CEILING_NOTE);
    assertThat(v.method()).contains("Holm").contains("m = 6").contains("0.991667");
    assertThat(v.failureLines()).isEmpty();
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }

  // --- a control that did not run -------------------------------------------------------------

  private static void controlSkippedNeverPasses(VerdictReport v) {
    assertThat(v.established()).isFalse();
    assertThat(v.controlMarker()).isEqualTo("skipped");
    assertThat(v.failures()).extracting(Failure::kind).contains(FailureKind.CONTROL_SKIPPED);
  }

  @Test
  void aControlThatDidNotRunNeverPasses() {
    CombinedRun run = Fixtures.separating();
    VerdictReport v = Verdict.evaluateSingleArm(run.treatment(), CFG);
    controlSkippedNeverPasses(v);
    assertThat(v.rates()).allSatisfy(r -> assertThat(r.control()).isNull());
    assertThat(v.failureLines())
        .anyMatch(l -> l.startsWith("NOT ESTABLISHED: the control arm 'off' did not run"));

    // Mutant: a verdict that assumes the missing control accepted everything (an audit-off null
    // indistinguishable from a control that never ran).
    ExperimentIdentity id = run.identity();
    HalfRun assumed = Fixtures.half(id, OFF, Fixtures.constant(6, 3, 1.0));
    caught(
        VerdictTest::controlSkippedNeverPasses,
        Verdict.evaluate(new CombinedRun(id, run.treatment(), assumed), CFG));
  }

  @Test
  void aControlHalfAloneIsTheTreatmentSkipped() {
    VerdictReport v = Verdict.evaluateSingleArm(Fixtures.separating().control(), CFG);
    assertThat(v.established()).isFalse();
    assertThat(v.controlMarker()).isEqualTo("ran");
    assertThat(v.failures())
        .extracting(Failure::kind)
        .containsExactly(FailureKind.TREATMENT_SKIPPED);
  }

  // --- separation in the wrong direction ------------------------------------------------------

  private static void wrongDirectionFails(VerdictReport v) {
    assertThat(v.established()).isFalse();
    assertThat(v.failures()).extracting(Failure::kind).containsExactly(FailureKind.NOT_SEPARATED);
    assertThat(v.rates()).noneMatch(RateRow::separated);
  }

  @Test
  void separationInTheWrongDirectionFails() {
    CombinedRun good = Fixtures.separating();
    ExperimentIdentity id = good.identity();
    // The treatment accepts MORE than the control: swap the data between the arms.
    HalfRun on =
        Fixtures.half(id, ON, good.control().cells().stream().map(c -> asArm(c, ON)).toList());
    HalfRun off =
        Fixtures.half(id, OFF, good.treatment().cells().stream().map(c -> asArm(c, OFF)).toList());
    CombinedRun reversed = new CombinedRun(id, on, off);
    VerdictReport v = Verdict.evaluate(reversed, CFG);
    wrongDirectionFails(v);
    assertThat(v.notes()).anyMatch(n -> n.contains("only control above treatment counts"));
    assertThat(v.rates().get(5).difference().estimate()).isNegative();

    // Mutant: a two-sided reading (|difference|), i.e. direction ignored: equivalent to
    // evaluating with the arms' data swapped back.
    caught(VerdictTest::wrongDirectionFails, Verdict.evaluate(good, CFG));
  }

  private static Cell asArm(Cell c, String arm) {
    CellBuilder b = c.toBuilder().arm(arm);
    if (arm.equals(OFF)) {
      b.auditCompleted(null)
          .auditCompletedPerS(null)
          .auditBusyFraction(null)
          .auditServiceMeanMs(null)
          .outstandingDelta(null);
    } else {
      b.auditCompleted(1000L)
          .auditCompletedPerS(100.0)
          .auditBusyFraction(0.25)
          .auditServiceMeanMs(2.5)
          .outstandingDelta(0L);
    }
    return b.build();
  }

  // --- a dead worker is fatal, not merely excluded --------------------------------------------

  private static void deadWorkerIsFatal(VerdictReport v) {
    assertThat(v.established()).isFalse();
    assertThat(v.fatal()).isNotEmpty();
    assertThat(v.failures()).extracting(Failure::kind).contains(FailureKind.FATAL);
  }

  @Test
  void aDeadWorkerFailsTheRunNotJustItsCell() {
    CombinedRun good = Fixtures.separating();
    // The enqueue fails in the treatment cell at sequence 4 (200/s, repeat 1).
    HalfRun dead =
        Fixtures.mapCells(
            good.treatment(),
            c -> c.sequence() == 4 ? withDelta(c, MetricRole.AUDIT_ENQUEUE_ERRORS, 3.0) : c);
    VerdictReport v = Verdict.evaluate(new CombinedRun(good.identity(), dead, good.control()), CFG);
    deadWorkerIsFatal(v);
    assertThat(v.fatal())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.kind()).isEqualTo(ProblemKind.ENQUEUE_ERRORS);
              assertThat(f.cell().sequence()).isEqualTo(4);
            });
    // Every later treatment cell is suspect and excluded with its reason.
    assertThat(v.excluded())
        .filteredOn(e -> e.cell().arm().equals(ON))
        .extracting(e -> e.cell().sequence())
        .containsExactly(4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17);
    assertThat(v.excluded().get(1).reasons())
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.AFTER_WORKER_LOSS);

    // Mutant: the failed enqueue treated as an ordinary excluding problem (transport errors):
    // the other cells still separate, and the run passes on a dead worker.
    HalfRun merelyExcluded =
        Fixtures.mapCells(
            good.treatment(),
            c ->
                c.sequence() == 4 ? c.toBuilder().transportErrors(Map.of("write", 3L)).build() : c);
    caught(
        VerdictTest::deadWorkerIsFatal,
        Verdict.evaluate(new CombinedRun(good.identity(), merelyExcluded, good.control()), CFG));
  }

  static Cell withDelta(Cell c, MetricRole role, Double value) {
    Map<String, Double> d = new HashMap<>(c.counterDeltas());
    d.put(role.key(), value);
    return c.toBuilder().counterDeltas(d).build();
  }

  // --- an idle worker does not report capacity ------------------------------------------------

  private static void workerRateIsTheBusyRate(VerdictReport v) {
    assertThat(v.workerRate()).isNotNull();
    assertThat(v.workerRate().estimatePerS()).isEqualTo(400.0);
    assertThat(v.workerRate().cellsUsed())
        .allSatisfy(c -> assertThat(c.offeredPerS()).isGreaterThanOrEqualTo(400.0));
    assertThat(v.workerRate().note()).contains("worker completion rate, not ingest capacity");
  }

  @Test
  void anIdleWorkerDoesNotReportCapacity() {
    // Below 400/s the worker completes what it is offered (busy 0.25..0.75): that is the offer,
    // not the worker's capacity.
    CombinedRun run = Fixtures.separating();
    VerdictReport v = Verdict.evaluate(run, CFG);
    workerRateIsTheBusyRate(v);
    assertThat(v.workerRate().cellsUsed()).hasSize(9);
    assertThat(v.workerRate().lowerPerS()).isEqualTo(400.0); // nine identical cells
    assertThat(v.cells())
        .filteredOn(a -> a.cell().offeredPerS() == 100.0 && a.cell().arm().equals(ON))
        .allSatisfy(a -> assertThat(a.busy()).isFalse());

    // Mutant: the busy gate dropped (every steady cell counts).
    VerdictConfig noBusyGate = new VerdictConfig(0.05, 0.05, 1e-9, 1.5, 2, 0.0, 0.02);
    caught(VerdictTest::workerRateIsTheBusyRate, Verdict.evaluate(run, noBusyGate));
  }

  // --- a cell that banked the whole channel ---------------------------------------------------

  /** Both arms have a queue here (a generic treatment); control cells bank the whole channel. */
  private static CombinedRun bankedControl() {
    ExperimentIdentity id = Fixtures.identity(List.of(500.0, 600.0), 3);
    // Truth at steady state: both arms accept 0.8. The control's cells started with an empty
    // queue and banked nearly all of it: +980 outstanding, +1000/5000 = +0.2 inflated acceptance.
    double[][] on = {{0.80, 0.79, 0.81}, {0.80, 0.805, 0.795}};
    HalfRun t = Fixtures.half(id, ON, on);
    List<Cell> c =
        Fixtures.half(id, ON, new double[][] {{0.99, 1.0, 0.995}, {0.99, 0.985, 1.0}})
            .cells()
            .stream()
            .map(
                cell ->
                    cell.toBuilder()
                        .arm(OFF)
                        .outstandingDelta(CAPACITY - 20L)
                        .auditBusyFraction(1.0)
                        .build())
            .toList();
    return new CombinedRun(id, t, Fixtures.half(id, OFF, c));
  }

  private static void bankedControlIsNotEvidence(VerdictReport v) {
    assertThat(v.established()).isFalse();
    assertThat(v.excluded())
        .filteredOn(e -> e.cell().arm().equals(OFF))
        .hasSize(6)
        .allSatisfy(
            e ->
                assertThat(e.reasons())
                    .extracting(CellProblem::kind)
                    .contains(ProblemKind.NOT_STEADY));
  }

  @Test
  void aCellThatBankedTheWholeChannelIsNotSteady() {
    VerdictReport v = Verdict.evaluate(bankedControl(), CFG);
    bankedControlIsNotEvidence(v);
    assertThat(v.failures())
        .extracting(Failure::kind)
        .containsExactly(FailureKind.NO_COMPARABLE_RATE);
    assertThat(v.cells())
        .filteredOn(a -> a.cell().arm().equals(OFF))
        .allSatisfy(
            a -> {
              assertThat(a.steady()).isFalse();
              assertThat(a.workerRateUsed()).isFalse();
            });

    // Mutant: steadiness not checked (any outstanding_delta is "steady"): the banked control
    // forges a separation.
    VerdictConfig noSteadyGate = new VerdictConfig(0.05, 0.999, 0.95, 1.5, 2, 0.0, 0.02);
    caught(
        VerdictTest::bankedControlIsNotEvidence, Verdict.evaluate(bankedControl(), noSteadyGate));
  }

  @Test
  void aTreatmentCellThatBankedStaysEvidenceButNotWorkerRate() {
    CombinedRun good = Fixtures.separating();
    HalfRun banked =
        Fixtures.mapCells(
            good.treatment(),
            c -> c.sequence() == 12 ? c.toBuilder().outstandingDelta(990L).build() : c);
    VerdictReport v =
        Verdict.evaluate(new CombinedRun(good.identity(), banked, good.control()), CFG);
    CellAssessment a = v.cells().get(12);
    assertThat(a.use()).isEqualTo(CellUse.EVIDENCE);
    assertThat(a.steady()).isFalse();
    assertThat(a.workerRateUsed()).isFalse();
    assertThat(a.problems()).extracting(CellProblem::kind).containsExactly(ProblemKind.NOT_STEADY);
    assertThat(v.notes()).anyMatch(n -> n.contains("can only hide a separation"));
    assertThat(v.workerRate().cellsUsed()).hasSize(8);
    assertThat(v.established()).isTrue();
  }

  // --- an arm with no queue never fails steadiness --------------------------------------------

  @Test
  void aControlWithNoQueueIsNeverUnsteady() {
    VerdictReport v = Verdict.evaluate(Fixtures.separating(), CFG);
    Consumer<VerdictReport> check =
        r -> {
          established(r);
          assertThat(r.cells())
              .filteredOn(a -> a.cell().arm().equals(OFF))
              .allSatisfy(a -> assertThat(a.steady()).isNull());
        };
    check.accept(v);
    assertThat(v.notes()).anyMatch(n -> n.startsWith("the control arm has no queue"));

    // Mutant: "no reading" read as failing, i.e. as an out-of-tolerance reading: the whole
    // control arm drops out.
    CombinedRun run = Fixtures.separating();
    HalfRun failing =
        Fixtures.mapCells(
            run.control(), c -> c.toBuilder().outstandingDelta((long) CAPACITY).build());
    caught(check, Verdict.evaluate(new CombinedRun(run.identity(), run.treatment(), failing), CFG));
  }

  // --- every failure reported -----------------------------------------------------------------

  @Test
  void everyFailureIsReportedNotOnlyTheFirst() {
    CombinedRun good = Fixtures.separating();
    ExperimentIdentity id = good.identity();
    HalfRun t =
        Fixtures.mapCells(
            good.treatment(),
            c -> c.sequence() == 0 ? withDelta(c, MetricRole.AUDIT_ENQUEUE_ERRORS, 1.0) : c);
    HalfRun partial =
        new HalfRun(
            t.schemaVersion(),
            id,
            ON,
            t.rig(),
            t.startedAt(),
            null,
            false,
            "interrupted",
            // Interrupted before its last cell: incompleteness is read from the cells.
            t.cells().subList(0, t.cells().size() - 1));
    VerdictReport v = Verdict.evaluate(new CombinedRun(id, partial, good.control()), CFG);
    assertThat(v.failures())
        .extracting(Failure::kind)
        .containsExactly(FailureKind.FATAL, FailureKind.INCOMPLETE, FailureKind.NO_COMPARABLE_RATE);
    assertThat(v.failureLines().get(2))
        .startsWith("NOT ESTABLISHED: too much of this dataset was excluded")
        .contains("AFTER_WORKER_LOSS x16")
        .contains("ENQUEUE_ERRORS x1");
  }

  // --- exclusions -----------------------------------------------------------------------------

  @Test
  void contaminatedCellsAreListedWithEveryReasonApartFromFailures() {
    CombinedRun good = Fixtures.separating();
    HalfRun t =
        Fixtures.mapCells(
            good.treatment(),
            c ->
                c.sequence() == 15
                    ? withDelta(
                            withDelta(c, MetricRole.ADMISSION_REJECTIONS_QUOTA, 5.0),
                            MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE,
                            2.0)
                        .toBuilder()
                        .notices(5)
                        .build()
                    : c);
    VerdictReport v = Verdict.evaluate(new CombinedRun(good.identity(), t, good.control()), CFG);
    assertThat(v.excluded())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.cell().sequence()).isEqualTo(15);
              assertThat(e.reasons())
                  .extracting(CellProblem::kind)
                  .containsExactly(
                      ProblemKind.ADMISSION_QUOTA,
                      ProblemKind.ADMISSION_UNAVAILABLE,
                      ProblemKind.NOTICES);
            });
    // The exclusion is not a failure: the run still separates on the other cells.
    assertThat(v.established()).isTrue();
    assertThat(v.rates().get(5).treatment().n()).isEqualTo(2);
  }

  @Test
  void twoCommunityCellsAreAnnotatedButNeverEvidence() {
    CombinedRun good = Fixtures.separating();
    List<Cell> cells = new java.util.ArrayList<>(good.treatment().cells());
    cells.add(
        withDelta(
            Fixtures.cell(ON, 600.0, 0, 18, 0.2).toBuilder().twoCommunity(true).build(),
            MetricRole.ADMISSION_REJECTIONS_QUOTA,
            7.0));
    HalfRun t = Fixtures.half(good.identity(), ON, cells);
    VerdictReport v = Verdict.evaluate(new CombinedRun(good.identity(), t, good.control()), CFG);
    CellAssessment a = v.cells().get(18);
    assertThat(a.use()).isEqualTo(CellUse.REPORT_ONLY);
    assertThat(a.steady()).isTrue();
    assertThat(a.problems())
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.ADMISSION_QUOTA);
    assertThat(v.rates().get(5).treatment().n()).isEqualTo(3);
    assertThat(v.excluded()).isEmpty();
  }

  // --- degenerate data -------------------------------------------------------------------------

  private static void constantColumnsDoNotSeparate(VerdictReport v) {
    assertThat(v.established()).isFalse();
    assertThat(v.rates()).noneMatch(RateRow::separated);
  }

  @Test
  void twoConstantColumnsGiveNoEvidence() {
    ExperimentIdentity id = Fixtures.identity(SIX_RATES, 3);
    double[][] on = Fixtures.constant(6, 3, 1.0);
    on[5] = new double[] {0.5, 0.5, 0.5};
    CombinedRun run =
        new CombinedRun(
            id, Fixtures.half(id, ON, on), Fixtures.half(id, OFF, Fixtures.constant(6, 3, 1.0)));
    VerdictReport v = Verdict.evaluate(run, CFG);
    constantColumnsDoNotSeparate(v);
    Difference d = v.rates().get(5).difference();
    assertThat(d.degenerate()).isTrue();
    assertThat(d.estimate()).isEqualTo(0.5);
    assertThat(d.standardError()).isZero();
    assertThat(d.pOneSided()).isNull();
    assertThat(v.comparableRates()).isEqualTo(6);
    assertThat(v.failureLines())
        .containsExactly(
            "NOT ESTABLISHED: not shown to limit ingest: no comparable rate separated (control"
                + " above treatment) at family-wise alpha 0.05 across m = 6 rates; every"
                + " comparable rate had exactly constant cells in both arms");
    assertThat(v.notes()).anyMatch(n -> n.contains("zero variance gives no estimate"));

    // Mutant: a naive rule that reads difference / 0 = +infinity as certainty.
    Function<VerdictReport, VerdictReport> naive =
        r -> {
          List<RateRow> rows =
              r.rates().stream()
                  .map(
                      row ->
                          new RateRow(
                              row.offeredPerS(),
                              row.treatment(),
                              row.control(),
                              row.comparable(),
                              row.notComparableReason(),
                              row.difference(),
                              row.comparable() && row.difference().estimate() > 0))
                  .toList();
          return new VerdictReport(
              true,
              r.controlMarker(),
              List.of(),
              rows,
              r.excluded(),
              r.fatal(),
              r.workerRate(),
              r.knee(),
              r.notes(),
              r.method(),
              r.config(),
              r.comparableRates(),
              r.cells(),
              r.clientSideEvidence());
        };
    caught(VerdictTest::constantColumnsDoNotSeparate, naive.apply(v));
  }

  @Test
  void oneConstantArmIsWellDefined() {
    // Control pinned at exactly 1.0 (zero variance), treatment varies: Welch's df reduces to
    // n_t - 1 exactly and the test is the one-sample t-test of the treatment against 1.0.
    ExperimentIdentity id = Fixtures.identity(List.of(800.0), 5);
    HalfRun t = Fixtures.half(id, ON, new double[][] {{0.62, 0.60, 0.65, 0.61, 0.63}});
    HalfRun c = Fixtures.half(id, OFF, new double[][] {{1.0, 1.0, 1.0, 1.0, 1.0}});
    Difference d = Verdict.evaluate(new CombinedRun(id, t, c), CFG).rates().get(0).difference();
    assertThat(d.degenerate()).isFalse();
    assertThat(d.welchDf()).isCloseTo(4.0, within(1e-12));
    assertThat(d.estimate()).isCloseTo(0.378, within(1e-12));
  }

  // --- not comparable --------------------------------------------------------------------------

  @Test
  void fewerThanTwoEvidenceCellsPerArmIsNotComparable() {
    ExperimentIdentity id = Fixtures.identity(List.of(500.0), 3);
    HalfRun t = Fixtures.half(id, ON, new double[][] {{0.5, 0.51, 0.49}});
    HalfRun c =
        Fixtures.mapCells(
            Fixtures.half(id, OFF, new double[][] {{1.0, 0.99, 1.0}}),
            cell ->
                cell.repeat() == 0
                    ? cell
                    : withDelta(cell, MetricRole.ADMISSION_REJECTIONS_QUOTA, null));
    VerdictReport v = Verdict.evaluate(new CombinedRun(id, t, c), CFG);
    assertThat(v.rates().get(0).comparable()).isFalse();
    assertThat(v.rates().get(0).notComparableReason())
        .isEqualTo("needs 2 evidence cells per arm, has 3 treatment and 1 control");
    assertThat(v.failures())
        .extracting(Failure::kind)
        .containsExactly(FailureKind.NO_COMPARABLE_RATE);
    assertThat(v.excluded())
        .allSatisfy(
            e ->
                assertThat(e.reasons())
                    .extracting(CellProblem::kind)
                    .containsExactly(ProblemKind.COUNTER_NOT_EXPOSED));
  }

  // --- nothing gates on the knee ---------------------------------------------------------------

  @Test
  void separationWithoutAConfirmedKneeStillPasses() {
    // The treatment drops only at the last rate: no knee can be confirmed, yet the arms separate.
    ExperimentIdentity id = Fixtures.identity(List.of(100.0, 200.0, 300.0), 3);
    HalfRun t = Fixtures.half(id, ON, new double[][] {{1, 1, 1}, {1, 0.999, 1}, {0.7, 0.71, 0.69}});
    HalfRun c = Fixtures.half(id, OFF, new double[][] {{1, 1, 1}, {1, 1, 1}, {1, 0.999, 1}});
    VerdictReport v = Verdict.evaluate(new CombinedRun(id, t, c), CFG);
    assertThat(v.established()).isTrue();
    assertThat(v.knee().kneePerS()).isNull();
    assertThat(v.knee().note()).contains("below at the last rate, 300/s, unconfirmed");
  }

  @Test
  void aLoneDipIsNotAKnee() {
    ExperimentIdentity id = Fixtures.identity(SIX_RATES, 3);
    double[][] on = {
      {1, 1, 1}, {1, 1, 1}, {0.9, 0.91, 0.9}, {1, 1, 0.999}, {0.8, 0.81, 0.8}, {0.66, 0.67, 0.66}
    };
    CombinedRun run =
        new CombinedRun(
            id, Fixtures.half(id, ON, on), Fixtures.half(id, OFF, Fixtures.constant(6, 3, 1.0)));
    KneeBracket k = Verdict.evaluate(run, CFG).knee();
    Consumer<KneeBracket> check =
        b -> {
          assertThat(b.kneePerS()).isEqualTo(500.0);
          assertThat(b.highestPassingPerS()).isEqualTo(400.0);
        };
    check.accept(k);
    assertThat(k.arm()).isEqualTo(ON);
    assertThat(k.note()).contains("lone dip(s) at 300/s").contains("report-only");

    // Mutant: the knee as the first rate below the threshold.
    KneeBracket firstBelow = new KneeBracket(ON, 200.0, 300.0, k.threshold(), "first below");
    assertThatThrownBy(() -> check.accept(firstBelow)).isInstanceOf(AssertionError.class);
  }
}
