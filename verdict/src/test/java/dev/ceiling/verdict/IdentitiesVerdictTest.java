package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.testing.HalfRuns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The defaults round's verdict on crafted cells, each reading with a partner that reads otherwise.
 */
class IdentitiesVerdictTest {
  private static final double RATE = 450;
  private static final double WINDOW_S = 5;
  private static final Map<String, String> STOCK =
      Map.of("limiter_events_per_sec", "10", "limiter_window_secs", "5");
  private static final VerdictConfig CFG = VerdictConfig.defaults();

  /** A cell at N identities: accepted/offered, refusals the relay counted, pool busy fraction. */
  private static IdentitiesVerdict.Measured cell(int n, double ratio, long refused, double busy) {
    ExperimentIdentity id =
        HalfRuns.identity(List.of(RATE), 1, WINDOW_S)
            .withMeasurement(new MeasurementSettings(2, 2, 10, n));
    Map<String, Double> deltas = new HashMap<>(HalfRuns.CLEAN_COUNTERS);
    deltas.put(MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), (double) refused);
    Cell c =
        HalfRuns.cell(HalfRuns.ON, RATE, 0, n, WINDOW_S, ratio)
            .counterDeltas(deltas)
            .notices(refused)
            .auditCompleted(Math.round(ratio * RATE * WINDOW_S))
            .auditCompletedPerS(ratio * RATE)
            .auditServiceMeanMs(3.0)
            .auditBusyFraction(busy)
            .poolBusyFraction(busy)
            .outstandingDelta(0L)
            .build();
    return new IdentitiesVerdict.Measured(c, id, false);
  }

  private static IdentitiesReport judge(List<IdentitiesVerdict.Measured> cells) {
    return IdentitiesVerdict.judge(List.of(10, 20, 40, 80), RATE, null, cells, STOCK, 300.0, CFG);
  }

  /** The stock limit (10/s each) binds below 30 identities; above, the workers' 300/s do. */
  private static List<IdentitiesVerdict.Measured> crossingAt40() {
    List<IdentitiesVerdict.Measured> cells = new ArrayList<>();
    cells.add(cell(10, 100 / RATE, Math.round((RATE - 100) * WINDOW_S), 0.35));
    cells.add(cell(20, 200 / RATE, Math.round((RATE - 200) * WINDOW_S), 0.70));
    cells.add(cell(40, 300 / RATE, 0, 0.99));
    cells.add(cell(80, 300 / RATE, 0, 0.99));
    return cells;
  }

  @Test
  void theLimiterBindsUntilTheBudgetsPassTheWorkersCeiling() {
    IdentitiesReport r = judge(crossingAt40());

    assertThat(r.row(10).reading()).isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(r.row(20).reading()).isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(r.row(40).reading()).isEqualTo(IdentitiesRow.Reading.WORKERS);
    assertThat(r.row(80).reading()).isEqualTo(IdentitiesRow.Reading.WORKERS);
    assertThat(r.firstFreeIdentities()).isEqualTo(40);
    assertThat(r.budgetPerIdentityPerS()).isEqualTo(10.0);
    assertThat(r.predictedCrossover()).isEqualTo(30.0);
    assertThat(r.words())
        .startsWith("At 450/s from one source address, the limiter stops binding from N = 40")
        .contains("N = 30.0")
        .contains("N = 10: LIMITER (100.0/s accepted, 78% refused by the limiter)");
  }

  /** Partner: a limiter still refusing at the largest N means no N tried frees the offer. */
  @Test
  void aLimiterThatStillRefusesAtTheLargestNFreesNothing() {
    List<IdentitiesVerdict.Measured> cells = crossingAt40();
    cells.set(3, cell(80, 0.6, 200, 0.99));

    IdentitiesReport r = judge(cells);

    assertThat(r.row(80).reading()).isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(r.firstFreeIdentities()).isNull();
    assertThat(r.words()).contains("the limiter binds at the largest N tried");
  }

  @Test
  void anOfferAcceptedWholeBindsNothingAndIdleWorkersAreNotTheCeiling() {
    List<IdentitiesVerdict.Measured> cells = crossingAt40();
    cells.set(2, cell(40, 1.0, 0, 0.99));
    cells.set(3, cell(80, 0.67, 0, 0.40));

    IdentitiesReport r = judge(cells);

    assertThat(r.row(40).reading()).isEqualTo(IdentitiesRow.Reading.NOTHING);
    assertThat(r.row(80).reading()).isEqualTo(IdentitiesRow.Reading.RELAY_CEILING);
  }

  /**
   * An offer accepted whole into a queue still filling (the backlog grew by half the queue over the
   * window, the workers busy) reads QUEUE_FILLING and the words say so; its partner, the same cell
   * with the backlog level, reads NOTHING. The limiter did not bind there either way.
   */
  @Test
  void anOfferAcceptedIntoAQueueStillFillingIsNotReadAsNothingBinds() {
    List<IdentitiesVerdict.Measured> cells = crossingAt40();
    IdentitiesVerdict.Measured m = cell(80, 1.0, 0, 0.99);
    long half = m.identity().queueCapacity() / 2;
    cells.set(
        3,
        new IdentitiesVerdict.Measured(
            m.cell().toBuilder().outstandingDelta(half).build(), m.identity(), false));

    IdentitiesReport r = judge(cells);

    assertThat(r.row(80).reading()).isEqualTo(IdentitiesRow.Reading.QUEUE_FILLING);
    assertThat(r.firstFreeIdentities()).isEqualTo(40);
    assertThat(r.words()).contains("At N = 80 the audit queue was still filling");
    cells.set(3, m);
    IdentitiesReport level = judge(cells);
    assertThat(level.row(80).reading()).isEqualTo(IdentitiesRow.Reading.NOTHING);
    assertThat(level.words()).doesNotContain("still filling");
  }

  /** A generator that could not keep its schedule still excludes; the limiter's refusals do not. */
  @Test
  void otherProblemsStillExcludeAndAnEmptyRowIsNotMeasured() {
    List<IdentitiesVerdict.Measured> cells = crossingAt40();
    IdentitiesVerdict.Measured m = cells.get(0);
    cells.set(
        0,
        new IdentitiesVerdict.Measured(
            m.cell().toBuilder().generatorBound(true).generatorBoundReason("lag").build(),
            m.identity(),
            false));

    IdentitiesReport r = judge(cells);

    assertThat(r.row(10).reading()).isEqualTo(IdentitiesRow.Reading.NOT_MEASURED);
    assertThat(r.row(10).used()).isZero();
    assertThat(r.row(20).used()).isEqualTo(1);
    assertThat(r.firstFreeIdentities()).isEqualTo(40);
    // The reason per cell, as the round's file records it: the excluding problem for the cell left
    // out; none for its partner, whose NOTICEs and quota refusals are the limiter speaking.
    assertThat(IdentitiesVerdict.exclusion(cells.get(0), CFG))
        .hasValueSatisfying(p -> assertThat(p.kind()).isEqualTo(ProblemKind.GENERATOR_BOUND));
    assertThat(IdentitiesVerdict.exclusion(cells.get(1), CFG)).isEmpty();
  }

  /** Without the relay's counter, NOTICEs are the limiter's evidence. */
  @Test
  void noticesCountWhereTheRelayExposesNoQuotaCounter() {
    IdentitiesVerdict.Measured m = cell(10, 100 / RATE, 1750, 0.35);
    Map<String, Double> deltas = new HashMap<>(m.cell().relay().counterDeltas());
    deltas.remove(MetricRole.ADMISSION_REJECTIONS_QUOTA.key());
    Cell noCounter = m.cell().toBuilder().counterDeltas(deltas).build();

    assertThat(IdentitiesVerdict.refused(noCounter))
        .isCloseTo(1750 / (RATE * WINDOW_S), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(IdentitiesVerdict.refused(noCounter.toBuilder().notices(0).build())).isZero();
  }

  /**
   * A relay without metrics whose limiter answers every refusal with OK false: the client's steady
   * state counts OK-true answers only, so the outstanding count stays flat where "offered minus
   * answered" expects it to grow, and the cell is not steady by construction. Its refusals are
   * still the limiter's: the row reads LIMITER. Partner: the same unsteady cell without refusals is
   * excluded, and its row is not measured.
   */
  @Test
  void aCellTheLimiterRefusedReadsLimiterThoughTheClientCannotReadItSteady() {
    long offered = Math.round(RATE * WINDOW_S);
    IdentitiesVerdict.Measured m = cell(10, 0, 0, 0.35);
    Map<String, Double> noQuota = new HashMap<>(m.cell().relay().counterDeltas());
    noQuota.remove(MetricRole.ADMISSION_REJECTIONS_QUOTA.key());
    Cell refusedAll =
        m.cell().toBuilder()
            .counterDeltas(noQuota)
            .notices(0)
            .rejected(offered)
            .unacknowledged(0)
            .rejectedByPrefix(Map.of("rate-limited", offered))
            .outstandingDelta(null)
            .windowCounts(0, 0, 0, 0, 2, 2, 2)
            .build();
    IdentitiesVerdict.Measured limited =
        new IdentitiesVerdict.Measured(refusedAll, m.identity(), true);
    assertThat(CellProblems.of(refusedAll, m.identity(), CFG, true))
        .extracting(CellProblem::kind)
        .contains(ProblemKind.CLIENT_NOT_STEADY);

    IdentitiesReport r =
        IdentitiesVerdict.judge(List.of(10), RATE, null, List.of(limited), Map.of(), null, CFG);
    assertThat(r.row(10).reading())
        .as("%s", CellProblems.of(refusedAll, m.identity(), CFG, true))
        .isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(r.row(10).limiterRefusedFraction()).isEqualTo(1.0);

    Cell unsteadyNoRefusal =
        refusedAll.toBuilder().rejected(0).accepted(offered).rejectedByPrefix(Map.of()).build();
    // The partner's only excluding problem is the client's steady state.
    assertThat(CellProblems.of(unsteadyNoRefusal, m.identity(), CFG, true))
        .filteredOn(CellProblem::excludesEvidence)
        .extracting(CellProblem::kind)
        .containsExactly(ProblemKind.CLIENT_NOT_STEADY);
    IdentitiesReport partner =
        IdentitiesVerdict.judge(
            List.of(10),
            RATE,
            null,
            List.of(new IdentitiesVerdict.Measured(unsteadyNoRefusal, m.identity(), true)),
            Map.of(),
            null,
            CFG);
    assertThat(partner.row(10).reading()).isEqualTo(IdentitiesRow.Reading.NOT_MEASURED);
  }

  /**
   * A cell that recorded its OK-false answers per half is judged by the client's steady check like
   * any other, with no exemption for the limiter: refusing evenly (1125 OK false in each half of a
   * 2250-event window, the outstanding count flat) it is steady and the row reads LIMITER.
   */
  private static Cell refusing(
      long acceptedFirst, long rejectedFirst, long acceptedSecond, long rejectedSecond) {
    IdentitiesVerdict.Measured m = cell(10, 0, 0, 0.35);
    Map<String, Double> noQuota = new HashMap<>(m.cell().relay().counterDeltas());
    noQuota.remove(MetricRole.ADMISSION_REJECTIONS_QUOTA.key());
    long rejected = rejectedFirst + rejectedSecond;
    long accepted = acceptedFirst + acceptedSecond;
    return m.cell().toBuilder()
        .counterDeltas(noQuota)
        .notices(0)
        .accepted(accepted)
        .acceptedInWindow(accepted)
        .rejected(rejected)
        .unacknowledged(0)
        .rejectedByPrefix(Map.of("rate-limited", rejected))
        .outstandingDelta(null)
        .windowCounts(acceptedFirst, acceptedSecond, accepted, 2, 2, 2, 2)
        .rejectedInWindowHalves(rejectedFirst, rejectedSecond)
        .build();
  }

  private static IdentitiesReport judgeOne(Cell c) {
    ExperimentIdentity id = cell(10, 0, 0, 0.35).identity();
    return IdentitiesVerdict.judge(
        List.of(10),
        RATE,
        null,
        List.of(new IdentitiesVerdict.Measured(c, id, true)),
        Map.of(),
        null,
        CFG);
  }

  @Test
  void aLimiterRefusingEvenlyInBothHalvesIsSteadyAndReadsLimiter() {
    Cell even = refusing(0, 1125, 0, 1125);
    ExperimentIdentity id = cell(10, 0, 0, 0.35).identity();
    assertThat(CellProblems.of(even, id, CFG, true))
        .extracting(CellProblem::kind)
        .doesNotContain(ProblemKind.CLIENT_NOT_STEADY);
    IdentitiesReport r = judgeOne(even);
    assertThat(r.row(10).reading()).isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(r.row(10).limiterRefusedFraction()).isEqualTo(1.0);
  }

  @Test
  void partnerALimiterThatStartsRefusingHalfwayIsNotSteadyAndItsCellIsNotUsed() {
    // The first half accepted whole (the limiter's budget still unspent), the second refused:
    // half of the offer refused over the cell, which a whole-cell exemption would read LIMITER.
    Cell halfway = refusing(1125, 0, 0, 1125);
    ExperimentIdentity id = cell(10, 0, 0, 0.35).identity();
    assertThat(CellProblems.of(halfway, id, CFG, true))
        .filteredOn(CellProblem::excludesEvidence)
        .extracting(CellProblem::kind)
        .containsExactlyInAnyOrder(ProblemKind.RELAY_REJECTIONS, ProblemKind.CLIENT_NOT_STEADY);
    assertThat(IdentitiesVerdict.refused(halfway)).isEqualTo(0.5);
    assertThat(judgeOne(halfway).row(10).reading()).isEqualTo(IdentitiesRow.Reading.NOT_MEASURED);
  }
}
