package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static dev.ceiling.verdict.Fixtures.SIX_RATES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.LinkHealth;
import dev.ceiling.core.model.MetricRole;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CellProblemsTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final ExperimentIdentity ID = Fixtures.identity(SIX_RATES, 3);

  private static List<ProblemKind> kinds(Cell c) {
    return CellProblems.of(c, ID, CFG).stream().map(CellProblem::kind).toList();
  }

  private static Cell clean(String arm) {
    return Fixtures.cell(arm, 500.0, 0, 0, 0.8);
  }

  @Test
  void aCleanCellHasNoProblemsInEitherArm() {
    assertThat(kinds(clean(ON))).isEmpty();
    assertThat(kinds(clean(OFF))).isEmpty();
    assertThat(CellProblems.steady(clean(ON), ID, CFG)).isTrue();
    assertThat(CellProblems.steady(clean(OFF), ID, CFG)).isNull();
    assertThat(CellProblems.busy(clean(ON), CFG)).isTrue();
    assertThat(CellProblems.busy(clean(OFF), CFG)).isNull();
  }

  @Test
  void aScrapeOverATenthOfTheWindowExcludesTheCellAndTheMessageSaysTheLimitPlainly() {
    // A 3 s window: its tenth is 0.30000000000000004 s in a double, which the message must not
    // print. The identity's duration is the fixtures', so DURATION_MISMATCH comes with it.
    Cell slow = clean(ON).toBuilder().durationRequestedS(3.0).scrapeS(0.05, 0.31, 3.2).build();
    List<CellProblem> p = CellProblems.of(slow, ID, CFG);
    assertThat(p).extracting(CellProblem::kind).contains(ProblemKind.SLOW_SCRAPE);
    assertThat(p)
        .filteredOn(x -> x.kind() == ProblemKind.SLOW_SCRAPE)
        .singleElement()
        .satisfies(
            x ->
                assertThat(x.message())
                    .contains("0.05 s at the window's start and 0.31 s at its end")
                    .contains("more than 0.3 s (10% of the window)"));
    Cell fast = clean(ON).toBuilder().durationRequestedS(3.0).scrapeS(0.05, 0.29, 3.2).build();
    assertThat(kinds(fast)).doesNotContain(ProblemKind.SLOW_SCRAPE);
  }

  @Test
  void aLinkThatFailedExcludesTheCellNamingTheLinkAndWhatHappened() {
    LinkHealth cache = new LinkHealth("cache", "127.0.0.1:6379", 16, 14, 1, 2, 3.14, 12.34);
    LinkHealth db = new LinkHealth("db", "127.0.0.1:5432", 3, 0, 0, 0, 0.0, null);
    Cell failed = clean(ON).toBuilder().links(List.of(db, cache)).build();
    List<CellProblem> p = CellProblems.of(failed, ID, CFG);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.LINK_FAILED);
    assertThat(p.get(0).excludesEvidence()).isTrue();
    assertThat(p.get(0).message())
        .isEqualTo(
            "link 'cache': 14 connections refused by 127.0.0.1:6379, 1 connection dropped by it,"
                + " 2 requests with no reply from it (the longest 3.1 s), the first 12.3 s into"
                + " the cell");
    // Partner: the same links, healthy, and a cell that recorded none: no exclusion.
    Cell healthy =
        clean(ON).toBuilder()
            .links(List.of(db, new LinkHealth("cache", "127.0.0.1:6379", 16, 0, 0, 0, 0.0, null)))
            .build();
    assertThat(kinds(healthy)).isEmpty();
    assertThat(kinds(clean(ON).toBuilder().links(List.of()).build())).isEmpty();
    // A stall alone is a failure too.
    Cell stalled =
        clean(OFF).toBuilder()
            .links(List.of(new LinkHealth("db", "127.0.0.1:5432", 1, 0, 0, 1, 3.1, 0.5)))
            .build();
    assertThat(CellProblems.of(stalled, ID, CFG))
        .singleElement()
        .satisfies(
            x ->
                assertThat(x.message())
                    .isEqualTo(
                        "link 'db': 1 request with no reply from 127.0.0.1:5432 (the longest 3.1"
                            + " s), the first 0.5 s into the cell"));
  }

  /**
   * {@code c} with {@code outstanding} events owed and no answer for {@code silenceS} at its end.
   */
  private static Cell owing(Cell c, long outstanding, double silenceS) {
    long half = c.acceptedInWindow() / 2;
    return c.toBuilder()
        .windowCounts(half, c.acceptedInWindow() - half, half, outstanding, 5, 5, outstanding)
        .silenceAtWindowEndS(silenceS)
        .build();
  }

  private static List<CellProblem> stalls(Cell c) {
    return CellProblems.of(c, ID, CFG).stream()
        .filter(p -> p.kind() == ProblemKind.RELAY_STALLED)
        .toList();
  }

  @Test
  void aRelaySilentForTwoSecondsWithEventsOwedIsExcludedAsStalledNamingHowLongAndHowMany() {
    assertThat(stalls(owing(clean(ON), 1234, 3.04)))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.excludesEvidence()).isTrue();
              assertThat(p.message())
                  .isEqualTo(
                      "the relay answered nothing (no OK, no NOTICE) for the last 3.0 s of the window with 1234"
                          + " events outstanding, and no link failed to blame: a stopped relay,"
                          + " not a slower one");
            });
    // At the bound itself: stalled (the bound is inclusive).
    assertThat(stalls(owing(clean(OFF), 1, CellProblems.RELAY_STALL_BOUND_S))).hasSize(1);
  }

  @Test
  void partnersASlowRelayACaughtUpRelayALowOfferAndABlamedLinkAreNotStalls() {
    // A slow relay still answers: its last answer is a service time before the window's end.
    assertThat(stalls(owing(clean(ON), 5000, 1.99))).isEmpty();
    // Silent, but nothing owed: the relay had answered everything.
    assertThat(stalls(owing(clean(ON), 0, 30.0))).isEmpty();
    // At 1 event/s four send intervals are 4 s: 3 s of silence is the offer's own pace.
    Cell slowOffer = owing(clean(ON).toBuilder().offeredPerS(1.0).build(), 2, 3.0);
    assertThat(stalls(slowOffer)).isEmpty();
    assertThat(stalls(owing(clean(ON).toBuilder().offeredPerS(1.0).build(), 2, 4.0))).hasSize(1);
    // A link failed in the cell: the link is blamed (LINK_FAILED), not the relay.
    Cell blamed =
        owing(
            clean(ON).toBuilder()
                .links(List.of(new LinkHealth("db", "127.0.0.1:5432", 1, 3, 0, 0, 0.0, 0.5)))
                .build(),
            1234,
            3.0);
    assertThat(kinds(blamed)).contains(ProblemKind.LINK_FAILED);
    assertThat(stalls(blamed)).isEmpty();
    // Not recorded (a cell written before the silence was): no reading, no stall.
    assertThat(stalls(owing(clean(ON), 1234, 3.0).toBuilder().silenceAtWindowEndS(null).build()))
        .isEmpty();
  }

  @Test
  void aLinkReadingThatContradictsItselfIsRefused() {
    assertThatThrownBy(() -> new LinkHealth("cache", "127.0.0.1:6379", 1, 1, 0, 0, 0.0, null))
        .hasMessageContaining("first_failure_s must be set exactly when the link failed");
    assertThatThrownBy(() -> new LinkHealth(" ", "", -1, 0, 0, 0, 0.0, null))
        .hasMessageContaining("links[].link")
        .hasMessageContaining("links[].target")
        .hasMessageContaining("links[].opened");
  }

  /** A cell from a relay without metrics: no counters, no queue readings. */
  private static Cell clientCell(String arm) {
    return clean(arm).toBuilder()
        .counterDeltas(Map.of())
        .outstandingDelta(null)
        .auditBusyFraction(null)
        .auditCompleted(null)
        .auditCompletedPerS(null)
        .auditServiceMeanMs(null)
        .build();
  }

  private static List<ProblemKind> clientKinds(Cell c) {
    return CellProblems.of(c, ID, CFG, true).stream().map(CellProblem::kind).toList();
  }

  @Test
  void withClientSideEvidenceNoCounterIsRequired() {
    assertThat(clientKinds(clientCell(ON))).isEmpty();
    // The control without metrics and without a control check cannot show its path was off.
    assertThat(clientKinds(clientCell(OFF))).containsExactly(ProblemKind.CONTROL_NOT_VERIFIED);
    assertThat(CellProblems.excludes(CellProblems.of(clientCell(OFF), ID, CFG, true))).isFalse();
    // The same cell judged by the metrics rules cannot show it was clean.
    assertThat(kinds(clientCell(ON))).contains(ProblemKind.COUNTER_NOT_EXPOSED);
  }

  @Test
  void withClientSideEvidenceWhatTheGeneratorSawExcludesTheCellWithItsReason() {
    Cell notices =
        clientCell(ON).toBuilder().notices(3).firstNotice("rate-limited: slow down").build();
    List<CellProblem> p = CellProblems.of(notices, ID, CFG, true);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.NOTICES);
    assertThat(p.get(0).excludesEvidence()).isTrue();
    assertThat(p.get(0).message())
        .isEqualTo(
            "the relay sent 3 NOTICE frames (the first: \"rate-limited: slow down\"), which carry"
                + " no event id: rejections that cannot be attributed");
    Cell rejected =
        clientCell(ON).toBuilder()
            .attempted(10)
            .accepted(8)
            .acceptedInWindow(8)
            .unacknowledged(0)
            .rejected(2)
            .rejectedByPrefix(Map.of("blocked", 2L))
            .build();
    assertThat(clientKinds(rejected)).containsExactly(ProblemKind.RELAY_REJECTIONS);
    Cell transport = clientCell(ON).toBuilder().transportErrors(Map.of("close", 1L)).build();
    assertThat(clientKinds(transport)).containsExactly(ProblemKind.TRANSPORT_ERRORS);
    Cell unknown = clientCell(ON).toBuilder().unknownOkIds(2L).build();
    assertThat(clientKinds(unknown)).containsExactly(ProblemKind.UNKNOWN_OK_IDS);
    assertThat(kinds(clean(ON).toBuilder().unknownOkIds(1L).build()))
        .containsExactly(ProblemKind.UNKNOWN_OK_IDS);

    // Mutant: client-side rules that ignore NOTICE frames would keep the limiter's cells.
    Function<Cell, List<ProblemKind>> noticeBlind =
        c -> clientKinds(c).stream().filter(k -> k != ProblemKind.NOTICES).toList();
    assertThat(noticeBlind.apply(notices)).isEmpty();
  }

  /** Quota AND unavailable rejections both contaminate: the seed's review finding. */
  private static void bothAdmissionReasonsExclude(Function<Cell, List<ProblemKind>> rules) {
    Cell quota = VerdictTest.withDelta(clean(ON), MetricRole.ADMISSION_REJECTIONS_QUOTA, 1.0);
    Cell unavailable =
        VerdictTest.withDelta(clean(ON), MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE, 4.0);
    assertThat(rules.apply(quota)).containsExactly(ProblemKind.ADMISSION_QUOTA);
    assertThat(rules.apply(unavailable)).containsExactly(ProblemKind.ADMISSION_UNAVAILABLE);
  }

  @Test
  void admissionContaminationIsQuotaAndUnavailable() {
    bothAdmissionReasonsExclude(CellProblemsTest::kinds);
    Cell quota = VerdictTest.withDelta(clean(ON), MetricRole.ADMISSION_REJECTIONS_QUOTA, 1.0);
    assertThat(CellProblems.of(quota, ID, CFG).get(0).message())
        .isEqualTo(
            "admission_rejections_quota moved by 1 during the cell: the admission limiter, not"
                + " the ingest path, shaped it");

    // Mutant: only quota rejections invalidate a cell (the seed's pre-review rule).
    Function<Cell, List<ProblemKind>> quotaOnly =
        c -> kinds(c).stream().filter(k -> k != ProblemKind.ADMISSION_UNAVAILABLE).toList();
    assertThatThrownBy(() -> bothAdmissionReasonsExclude(quotaOnly))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void aCounterThatIsNotExposedCannotShowTheCellWasClean() {
    Map<String, Double> d = new HashMap<>(Fixtures.CLEAN_COUNTERS);
    d.remove(MetricRole.ADMISSION_REJECTIONS_QUOTA.key());
    Cell absent = clean(OFF).toBuilder().counterDeltas(d).build();
    Cell nullValue = VerdictTest.withDelta(clean(OFF), MetricRole.ADMISSION_REJECTIONS_QUOTA, null);
    for (Cell c : List.of(absent, nullValue)) {
      List<CellProblem> p = CellProblems.of(c, ID, CFG);
      assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.COUNTER_NOT_EXPOSED);
      assertThat(p.get(0).excludesEvidence()).isTrue();
      assertThat(p.get(0).message()).contains("positive-controlled");
    }
  }

  @Test
  void auditCountersAreRequiredOnlyWhereThereIsAnAuditPath() {
    Map<String, Double> d = new HashMap<>(Fixtures.CLEAN_COUNTERS);
    d.remove(MetricRole.AUDIT_WRITE_ERRORS.key());
    d.remove(MetricRole.AUDIT_ENQUEUE_ERRORS.key());
    assertThat(kinds(clean(OFF).toBuilder().counterDeltas(d).build())).isEmpty();
    // A relay may expose the audit counter, flat at zero, where the path is off: still no path.
    assertThat(
            kinds(
                clean(OFF).toBuilder()
                    .counterDeltas(d)
                    .auditCompleted(0L)
                    .auditCompletedPerS(0.0)
                    .build()))
        .isEmpty();
    assertThat(kinds(clean(ON).toBuilder().counterDeltas(d).build()))
        .containsExactly(ProblemKind.COUNTER_NOT_EXPOSED, ProblemKind.COUNTER_NOT_EXPOSED);
  }

  @Test
  void everyExcludingReasonIsReportedForOneCell() {
    Cell bad =
        VerdictTest.withDelta(clean(ON), MetricRole.AUDIT_WRITE_ERRORS, 2.0).toBuilder()
            .rejected(3)
            .rejectedByPrefix(Map.of("invalid", 3L))
            .notices(1)
            .transportErrors(Map.of("connect", 1L, "write", 2L))
            .counterResets(List.of("audit_log_count"))
            .generatorBound(true)
            .generatorBoundReason("send lag p99 12 ms > 5 ms")
            .headroom(1.2)
            .offeredPerS(550.0)
            .durationRequestedS(5.0)
            .attempted(2750)
            .accepted(2000)
            .acceptedInWindow(2000)
            .unacknowledged(747)
            .build();
    List<CellProblem> p = CellProblems.of(bad, ID, CFG);
    assertThat(p)
        .extracting(CellProblem::kind)
        .containsExactly(
            ProblemKind.RELAY_REJECTIONS,
            ProblemKind.NOTICES,
            ProblemKind.TRANSPORT_ERRORS,
            ProblemKind.AUDIT_WRITE_ERRORS,
            ProblemKind.COUNTER_RESET,
            ProblemKind.GENERATOR_BOUND,
            ProblemKind.LOW_HEADROOM,
            ProblemKind.OFF_GRID,
            ProblemKind.DURATION_MISMATCH);
    assertThat(p).allMatch(CellProblem::excludesEvidence);
    assertThat(p.get(2).message())
        .isEqualTo("the generator saw 3 transport errors {connect=1, write=2}");
    assertThat(p.get(6).message()).isEqualTo("generator headroom 1.2x is below the required 1.5x");
  }

  @Test
  void unknownHeadroomExcludes() {
    assertThat(kinds(clean(ON).toBuilder().headroom(null).build()))
        .containsExactly(ProblemKind.HEADROOM_UNKNOWN);
    assertThat(kinds(clean(ON).toBuilder().headroom(1.5).build())).isEmpty();
  }

  @Test
  void moreAcceptedThanOfferedIsFatal() {
    Cell impossible =
        clean(ON).toBuilder().attempted(5100).accepted(5050).unacknowledged(50).build();
    List<CellProblem> p = CellProblems.of(impossible, ID, CFG);
    assertThat(p).extracting(CellProblem::kind).containsExactly(ProblemKind.IMPOSSIBLE_MEASUREMENT);
    assertThat(p.get(0).kind().fatal()).isTrue();
  }

  @Test
  void steadinessIsStabilityNotEmptiness() {
    // Tolerance 5% of 1000 = 50 entries, inclusive.
    assertThat(CellProblems.steady(clean(ON).toBuilder().outstandingDelta(50L).build(), ID, CFG))
        .isTrue();
    assertThat(CellProblems.steady(clean(ON).toBuilder().outstandingDelta(-50L).build(), ID, CFG))
        .isTrue();
    Cell banked = clean(ON).toBuilder().outstandingDelta(51L).build();
    assertThat(CellProblems.steady(banked, ID, CFG)).isFalse();
    CellProblem p = CellProblems.of(banked, ID, CFG).get(0);
    assertThat(p.kind()).isEqualTo(ProblemKind.NOT_STEADY);
    assertThat(p.excludesEvidence()).isFalse();
    assertThat(p.message()).contains("banked acceptance credit");

    Cell drained = clean(ON).toBuilder().outstandingDelta(-400L).build();
    assertThat(CellProblems.of(drained, ID, CFG).get(0).message()).contains("drained backlog");
  }

  @Test
  void withoutACapacityAQueueReadingCannotBeJudged() {
    ExperimentIdentity noCap =
        new ExperimentIdentity(
            ID.profile(),
            ON,
            OFF,
            ID.ratesPerS(),
            ID.durationS(),
            ID.repeats(),
            ID.order(),
            ID.orderSeed(),
            ID.communityHosts(),
            ID.limiterSettings(),
            null,
            ID.generatorIdentity(),
            ID.relaySourceRevision(),
            ID.relaySourceDiffDigest(),
            ID.relayBinaryDigest(),
            java.util.Map.of());
    assertThat(CellProblems.steady(clean(ON), noCap, CFG)).isFalse();
    assertThat(CellProblems.of(clean(ON), noCap, CFG).get(0).message())
        .contains("names no queue capacity");
  }
}
