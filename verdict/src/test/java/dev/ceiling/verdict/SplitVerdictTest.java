package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The split design's verdict on crafted runs: each answer with a partner that must read otherwise.
 */
class SplitVerdictTest {
  private static final double RATE = 120.0;
  private static final double DELTA = 0.05;
  private static final VerdictConfig CFG = VerdictConfig.defaults();

  /** One (rate, repeat) pair's figures: each arm's accepted/offered and pool busy fraction. */
  private record Pair(double oneRatio, double splitRatio, Double oneBusy, Double splitBusy) {}

  private static HalfRun run(List<Pair> pairs) {
    return run(pairs, null);
  }

  /**
   * The pairs as a run; with {@code endScrapeS} every cell's scrapes are recorded: 0.01 s at the
   * window's start and {@code endScrapeS} at its end, their completions the window plus the
   * difference apart, as the runner records them.
   */
  private static HalfRun run(List<Pair> pairs, Double endScrapeS) {
    ExperimentIdentity id = Fixtures.identity(List.of(RATE), pairs.size());
    List<Cell> cells = new ArrayList<>();
    int seq = 0;
    for (int r = 0; r < pairs.size(); r++) {
      Pair p = pairs.get(r);
      // Alternate which kind runs first, as the round's plan does.
      boolean splitFirst = r % 2 == 1;
      Cell one = cell(r, splitFirst ? seq + 1 : seq, false, p.oneRatio(), p.oneBusy(), endScrapeS);
      Cell split =
          cell(r, splitFirst ? seq : seq + 1, true, p.splitRatio(), p.splitBusy(), endScrapeS);
      cells.add(splitFirst ? split : one);
      cells.add(splitFirst ? one : split);
      seq += 2;
    }
    return Fixtures.half(id, Fixtures.ON, cells);
  }

  private static Cell cell(
      int repeat, int seq, boolean split, double ratio, Double busy, Double endScrapeS) {
    return HalfRuns.cell(Fixtures.ON, RATE, repeat, seq, Fixtures.DURATION_S, ratio)
        .scrapeS(
            endScrapeS == null ? null : 0.01,
            endScrapeS,
            endScrapeS == null ? null : Fixtures.DURATION_S + endScrapeS - 0.01)
        .twoCommunity(split)
        .auditCompleted(Math.round(ratio * RATE * Fixtures.DURATION_S))
        .auditCompletedPerS(ratio * RATE)
        .auditServiceMeanMs(25.0)
        .auditBusyFraction(1.0)
        .poolBusyFraction(busy)
        .outstandingDelta(0L)
        .build();
  }

  private static SplitReport judge(List<Pair> pairs) {
    return SplitVerdict.judge(run(pairs), DELTA, 160.0, 40.0, CFG);
  }

  @Test
  void oneWorkerBusyInBothArmsMasksEveryPairAndTheLockIsNotMeasurable() {
    SplitReport r =
        judge(
            List.of(
                new Pair(0.333, 0.334, 0.99, 0.99),
                new Pair(0.331, 0.336, 0.98, 0.99),
                new Pair(0.334, 0.333, 0.99, 0.98)));

    assertThat(r.answer()).isEqualTo(SplitReport.Answer.LOCK_NOT_MEASURABLE);
    assertThat(r.rate(RATE).masked()).isTrue();
    assertThat(r.rate(RATE).maskedPairs()).isEqualTo(3);
    assertThat(r.rate(RATE).oneAcceptedPerS())
        .isCloseTo(0.333 * RATE, org.assertj.core.data.Offset.offset(1.0));
    assertThat(r.cells())
        .allSatisfy(
            c -> {
              assertThat(c.use()).isEqualTo(CellUse.EXCLUDED);
              assertThat(c.problems()).anyMatch(p -> p.kind() == ProblemKind.MASKED_BY_WORKER);
            });
    assertThat(r.words())
        .contains("At every rate the audit workers were busy")
        .contains("one 0.987, split 0.987")
        .contains("above two locks', 80.0/s")
        .contains("more than 0.5 times today's workers")
        .contains("Less delay does not unmask");
  }

  /**
   * A saturated pool can read below the threshold when its end scrape was slow: the relay rendered
   * it somewhere inside the scrape, so its counters may cover a span shorter by the scrape's
   * duration than the one the reading divides by. Here 0.93 over 10.29 s may be 0.958 over 9.99 s:
   * masked. The partner, the same readings with a 0.01 s end scrape, is not.
   */
  @Test
  void aReadingBelowTheThresholdByNoMoreThanItsEndScrapeAllowsStillMasks() {
    List<Pair> pairs =
        List.of(
            new Pair(0.333, 0.334, 0.93, 0.99),
            new Pair(0.331, 0.336, 0.99, 0.93),
            new Pair(0.334, 0.333, 0.93, 0.93));

    SplitReport slow = SplitVerdict.judge(run(pairs, 0.3), DELTA, 160.0, 40.0, CFG);
    assertThat(slow.answer()).isEqualTo(SplitReport.Answer.LOCK_NOT_MEASURABLE);
    assertThat(slow.rate(RATE).maskedPairs()).isEqualTo(3);
    assertThat(slow.cells().get(0).problems())
        .filteredOn(p -> p.kind() == ProblemKind.MASKED_BY_WORKER)
        .singleElement()
        .satisfies(p -> assertThat(p.message()).contains("0.930").contains("0.958"));
    assertThat(slow.words()).contains("allowing for how long each end scrape took");

    SplitReport fast = SplitVerdict.judge(run(pairs, 0.01), DELTA, 160.0, 40.0, CFG);
    assertThat(fast.rate(RATE).maskedPairs()).isZero();
    assertThat(fast.answer()).isNotEqualTo(SplitReport.Answer.LOCK_NOT_MEASURABLE);
  }

  @Test
  void theLargestBusyFractionTheScrapesAllowIsTheReadingOverTheShortestSpan() {
    Cell scraped =
        HalfRuns.cell(Fixtures.ON, RATE, 0, 0, Fixtures.DURATION_S, 0.3)
            .poolBusyFraction(0.9)
            .scrapeS(0.05, 0.6, 6.0)
            .build();
    assertThat(SplitVerdict.busyAtMost(scraped))
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
    // Without the scrape times the reading is all there is.
    Cell unscraped = scraped.toBuilder().scrapeS(null, null, null).build();
    assertThat(SplitVerdict.busyAtMost(unscraped)).isEqualTo(0.9);
    assertThat(SplitVerdict.busyAtMost(scraped.toBuilder().poolBusyFraction(null).build()))
        .isNull();
  }

  @Test
  void partnerWorkersBusyInOneArmOnlyIsNotMasked() {
    // The one-community arm's workers are busy, the split arm's are not: the split arm shows
    // what the workers alone allow, so the pair speaks (here: the split raises).
    SplitReport r =
        judge(
            List.of(
                new Pair(0.333, 0.66, 0.99, 0.50),
                new Pair(0.331, 0.67, 0.98, 0.51),
                new Pair(0.334, 0.665, 0.99, 0.50)));

    assertThat(r.answer()).isEqualTo(SplitReport.Answer.SPLIT_RAISES_THE_CEILING);
    assertThat(r.rate(RATE).masked()).isFalse();
    assertThat(r.cells()).allSatisfy(c -> assertThat(c.use()).isEqualTo(CellUse.EVIDENCE));
  }

  @Test
  void aPerCommunityLockIsShownWhenTheSplitArmAcceptsTwiceAsMuch() {
    SplitReport r =
        judge(
            List.of(
                new Pair(0.333, 0.666, 0.25, 0.50),
                new Pair(0.330, 0.660, 0.25, 0.49),
                new Pair(0.336, 0.670, 0.26, 0.50)));

    assertThat(r.answer()).isEqualTo(SplitReport.Answer.SPLIT_RAISES_THE_CEILING);
    SplitRate at = r.rate(RATE);
    assertThat(at.reading().reading()).isEqualTo(RateReading.Reading.RAISES);
    assertThat(at.splitAcceptedPerS())
        .isCloseTo(0.665 * RATE, org.assertj.core.data.Offset.offset(1.0));
    assertThat(r.words())
        .contains("raises the ceiling")
        .contains("at 120/s the split arm accepted 79.8/s against 40.0/s")
        .contains("80.0/s for two");
  }

  @Test
  void noRaiseWhenBothArmsAcceptTheSame() {
    SplitReport r =
        judge(
            List.of(
                new Pair(0.333, 0.334, 0.25, 0.25),
                new Pair(0.331, 0.332, 0.25, 0.25),
                new Pair(0.334, 0.333, 0.26, 0.25)));

    assertThat(r.answer()).isEqualTo(SplitReport.Answer.EQUIVALENT_WITHIN_DELTA);
    assertThat(r.rate(RATE).reading().reading())
        .isEqualTo(RateReading.Reading.EQUIVALENT_WITHIN_DELTA);
    assertThat(r.words()).contains("by less than +-0.05").contains("not per community");
  }

  /** Five pairs whose split arm accepts {@code raise} more of the offer than the one arm. */
  private static List<Pair> raisedBy(double raise) {
    double[] one = {0.325, 0.330, 0.322, 0.328, 0.326};
    double[] jitter = {0.002, -0.003, 0.001, 0.000, -0.001};
    List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < one.length; i++) {
      pairs.add(new Pair(one[i], one[i] + raise + jitter[i], 0.25, 0.25));
    }
    return pairs;
  }

  /**
   * A global lock on a loaded machine, where the split arm can accept +0.025 of the offer more: a
   * raise the data show, but inside +-0.05, the smallest difference declared to matter. The answer
   * is equivalence, and the words give the raise; a per-community lock's +0.3 is not.
   */
  @Test
  void aShownRaiseWithinDeltaAnswersEquivalentAndTheWordsGiveTheRaise() {
    SplitReport r = judge(raisedBy(0.025));

    RateReading at = r.rate(RATE).reading();
    // The case distinguishes: a raise-first rule would answer SPLIT RAISES THE CEILING here.
    assertThat(at.pRaiseAdjusted()).isLessThanOrEqualTo(CFG.familyAlpha());
    assertThat(at.pEquivalenceAdjusted()).isLessThanOrEqualTo(CFG.familyAlpha());
    assertThat(r.answer()).isEqualTo(SplitReport.Answer.EQUIVALENT_WITHIN_DELTA);
    assertThat(at.reading()).isEqualTo(RateReading.Reading.EQUIVALENT_WITHIN_DELTA);
    assertThat(r.words())
        .contains("by less than +-0.05")
        .contains(
            "at 120/s the split arm accepted 42.1/s against 39.1/s for one community"
                + " (accepted/offered +0.025 [+0.022, +0.028], Holm p of a raise 1.44e-06; a raise"
                + " of +0.025 [+0.022, +0.028] is shown, but it lies within +-0.05, the smallest"
                + " difference declared to matter)");
    // Partner: the same arms with a raise of +0.3 answer a raise, with no such note.
    SplitReport large = judge(raisedBy(0.3));
    assertThat(large.answer()).isEqualTo(SplitReport.Answer.SPLIT_RAISES_THE_CEILING);
    assertThat(large.words()).doesNotContain("is shown, but");
  }

  /**
   * The mutant the design note forbids: "equivalent" read from overlapping intervals. On this
   * crafted case with wide intervals the two arms' 95% intervals overlap, so that rule would call
   * them equivalent; the TOST cannot put the difference inside +-0.05 and the verdict must say
   * INCONCLUSIVE.
   */
  @Test
  void overlappingWideIntervalsAreInconclusiveNeverEquivalent() {
    List<Pair> wide =
        List.of(
            new Pair(0.20, 0.25, 0.25, 0.25),
            new Pair(0.50, 0.45, 0.25, 0.25),
            new Pair(0.35, 0.38, 0.25, 0.25));
    double[] one = wide.stream().mapToDouble(Pair::oneRatio).toArray();
    double[] split = wide.stream().mapToDouble(Pair::splitRatio).toArray();
    double[] a = Welch.meanInterval(Sample.of(one), 0.95);
    double[] b = Welch.meanInterval(Sample.of(split), 0.95);
    boolean mutantSaysEquivalent = a[0] <= b[1] && b[0] <= a[1];
    assertThat(mutantSaysEquivalent).as("the crafted case must fool the overlap rule").isTrue();

    SplitReport r = judge(wide);

    assertThat(r.answer()).isEqualTo(SplitReport.Answer.INCONCLUSIVE);
    assertThat(r.words()).contains("not evidence that splitting changes nothing");
  }

  @Test
  void withoutPoolBusyTimeMaskingCannotBeDetectedAndTheWordsSaySo() {
    SplitReport r =
        judge(
            List.of(
                new Pair(0.333, 0.334, null, null),
                new Pair(0.331, 0.332, null, null),
                new Pair(0.334, 0.333, null, null)));

    assertThat(r.maskingReadable()).isFalse();
    assertThat(r.answer()).isEqualTo(SplitReport.Answer.EQUIVALENT_WITHIN_DELTA);
    assertThat(r.words())
        .contains("masking by the workers could not be detected")
        .contains("ceilings here are the client's")
        .contains("cannot tell whether the relay's workers bound before the lock");
    // Partner: the same run with busy time readable says nothing of the kind.
    assertThat(
            judge(
                    List.of(
                        new Pair(0.333, 0.334, 0.2, 0.2),
                        new Pair(0.331, 0.332, 0.2, 0.2),
                        new Pair(0.334, 0.333, 0.2, 0.2)))
                .words())
        .doesNotContain("could not be detected");
  }

  @Test
  void aLostWorkerInvalidatesTheRun() {
    HalfRun h =
        run(
            List.of(
                new Pair(0.333, 0.666, 0.25, 0.5),
                new Pair(0.330, 0.670, 0.25, 0.5),
                new Pair(0.336, 0.660, 0.25, 0.5)));
    HalfRun lost =
        Fixtures.mapCells(
            h,
            c ->
                c.sequence() == 1
                    ? c.toBuilder()
                        .counterDeltas(withEnqueueErrors(c.relay().counterDeltas()))
                        .build()
                    : c);

    SplitReport r = SplitVerdict.judge(lost, DELTA, null, null, CFG);

    assertThat(r.answer()).isEqualTo(SplitReport.Answer.RUN_INVALID);
    assertThat(r.fatal()).isNotEmpty();
    assertThat(SplitVerdict.judge(h, DELTA, null, null, CFG).answer())
        .isEqualTo(SplitReport.Answer.SPLIT_RAISES_THE_CEILING);
  }

  private static Map<String, Double> withEnqueueErrors(Map<String, Double> deltas) {
    Map<String, Double> m = new java.util.TreeMap<>(deltas);
    m.put(dev.ceiling.core.model.MetricRole.AUDIT_ENQUEUE_ERRORS.key(), 3.0);
    return m;
  }

  @Test
  void aMarginOutsideZeroToOneIsRefused() {
    HalfRun h = run(List.of(new Pair(0.3, 0.3, 0.2, 0.2)));
    assertThatThrownBy(() -> SplitVerdict.judge(h, 0, null, null, CFG))
        .hasMessageContaining("delta must be in (0, 1)");
  }
}
