package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The A/B's equivalence question wired into the verdict, on crafted data: the three readings, the
 * binomial floor on zero spread (and its partner where the counts are too few), Holm across rates,
 * the overlap mutant the design note forbids, and that the margin never changes the verdict.
 */
class AbEquivalenceTest {
  private static final double DELTA = 0.05;

  private static VerdictReport judge(ExperimentIdentity id, double[][] on, double[][] off) {
    return Verdict.evaluate(
        new CombinedRun(id, Fixtures.half(id, ON, on), Fixtures.half(id, OFF, off)),
        VerdictConfig.defaults());
  }

  private static ExperimentIdentity id(List<Double> rates, int repeats) {
    return Fixtures.identity(rates, repeats).withEquivalenceMargin(DELTA);
  }

  @Test
  void farBelowTheCeilingEveryCellAcceptingAllIsEquivalentByTheCountsFloor() {
    // 100/s and 200/s for 10 s: 1,000 and 2,000 events per cell, every one accepted in both arms.
    ExperimentIdentity id = id(List.of(100.0, 200.0), 3);
    VerdictReport v = judge(id, Fixtures.constant(2, 3, 1.0), Fixtures.constant(2, 3, 1.0));
    EquivalenceReport e = v.equivalence();
    assertThat(e.margin()).isEqualTo(DELTA);
    assertThat(e.comparableRates()).isEqualTo(2);
    assertThat(e.ratesReading(RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA))
        .containsExactly(100.0, 200.0);
    RateEquivalence at100 = e.rates().get(0);
    assertThat(at100.binomialFloor()).isTrue();
    assertThat(at100.cost()).isEqualTo(0.0);
    // The floor worked out by hand: p = (3000 + 2) / (3000 + 4), variance p(1 - p) / 1000 per
    // cell, three cells per arm: se = sqrt(2 p (1 - p) / 3000), df = 4 (Welch-Satterthwaite).
    double p = 3002.0 / 3004.0;
    assertThat(at100.tost().standardError())
        .isCloseTo(Math.sqrt(2 * p * (1 - p) / 3000), offset(1e-15));
    assertThat(at100.tost().df()).isCloseTo(4.0, offset(1e-12));
    // The verdict itself is unchanged: nothing limits, so it is not established.
    assertThat(v.established()).isFalse();
    assertThat(v.failures()).extracting(Failure::kind).containsExactly(FailureKind.NOT_SEPARATED);
    assertThat(e.summary())
        .isEqualTo(
            "'on' costs less than 0.05 of accepted/offered against 'off' at 100/s, 200/s:"
                + " equivalent within +-0.05 (TOST at family-wise alpha 0.05, Holm across m = 2)."
                + " At 100/s, 200/s the cells varied less than their counts' binomial sampling"
                + " error, which then set the standard error (independent per-event losses"
                + " assumed).");
    // Partner: the plain TOST on the same constant values has no estimate of sampling error.
    assertThat(
            TwoSampleTost.test(new double[] {1, 1, 1}, new double[] {1, 1, 1}, DELTA, 0.05)
                .reading())
        .isEqualTo(Tost.Reading.INCONCLUSIVE);
  }

  @Test
  void tooFewEventsPerCellCannotPinTheCostDownToDelta() {
    // 1/s for 10 s: 10 events per cell, all accepted; the counts cannot say "within 0.05".
    ExperimentIdentity id = id(List.of(1.0, 100.0), 3);
    VerdictReport v = judge(id, Fixtures.constant(2, 3, 1.0), Fixtures.constant(2, 3, 1.0));
    RateEquivalence few = v.equivalence().rates().get(0);
    assertThat(few.binomialFloor()).isTrue();
    assertThat(few.reading()).isEqualTo(RateEquivalence.Reading.INCONCLUSIVE);
    assertThat(few.tost().upper()).isGreaterThan(DELTA);
    // Partner: at 1,000 events per cell the same all-accepted cells are equivalent.
    assertThat(v.equivalence().rates().get(1).reading())
        .isEqualTo(RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA);
    assertThat(v.equivalence().summary())
        .contains("Inconclusive at 1/s: neither a limit nor a cost below 0.05 is shown.");
  }

  /** The crafted wide case: per-arm 95% intervals overlap almost wholly, the cost is unknown. */
  private static final double[][] WIDE_ON = {{0.5, 0.9, 0.7}, {0.80, 0.82, 0.79}};

  private static final double[][] WIDE_OFF = {{0.6, 0.95, 0.4}, {0.81, 0.80, 0.83}};

  /** On wide intervals the reading is INCONCLUSIVE, never equivalent: overlap shows no equality. */
  private static void wideIsInconclusive(Function<VerdictReport, RateEquivalence.Reading> read) {
    VerdictReport v = judge(id(List.of(300.0, 350.0), 3), WIDE_ON, WIDE_OFF);
    assertThat(read.apply(v)).isEqualTo(RateEquivalence.Reading.INCONCLUSIVE);
  }

  @Test
  void overlappingWideIntervalsAreInconclusiveAndTheOverlapMutantFails() {
    wideIsInconclusive(v -> v.equivalence().rates().get(0).reading());
    VerdictReport v = judge(id(List.of(300.0, 350.0), 3), WIDE_ON, WIDE_OFF);
    RateRow row = v.rates().get(0);
    assertThat(row.treatment().lower()).isLessThan(row.control().upper());
    assertThat(row.control().lower()).isLessThan(row.treatment().upper());
    assertThat(v.equivalence().rates().get(0).binomialFloor()).isFalse();
    // Mutant: "equivalent" read from the per-arm intervals overlapping.
    Function<VerdictReport, RateEquivalence.Reading> overlap =
        r -> {
          RateRow x = r.rates().get(0);
          boolean overlaps =
              x.treatment().lower() <= x.control().upper()
                  && x.control().lower() <= x.treatment().upper();
          return overlaps
              ? RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA
              : RateEquivalence.Reading.INCONCLUSIVE;
        };
    assertThatThrownBy(() -> wideIsInconclusive(overlap)).isInstanceOf(AssertionError.class);
    // Where the floor does not bind, the figures are the two-sample Welch TOST's (checked against
    // SciPy in EquivalenceTest), Holm-adjusted across the two rates.
    Tost plain =
        TwoSampleTost.test(
            new double[] {0.80, 0.82, 0.79}, new double[] {0.81, 0.80, 0.83}, 0.05, 0.05);
    RateEquivalence tight = v.equivalence().rates().get(1);
    assertThat(tight.tost().p()).isCloseTo(plain.p(), offset(1e-12));
    assertThat(tight.tost().lower()).isCloseTo(plain.lower(), offset(1e-12));
    Tost wide = v.equivalence().rates().get(0).tost();
    double smaller = Math.min(plain.p(), wide.p());
    double larger = Math.max(plain.p(), wide.p());
    assertThat(tight.pAdjusted())
        .isCloseTo(
            plain.p() == smaller ? 2 * smaller : Math.max(2 * smaller, larger), offset(1e-12));
    assertThat(tight.reading()).isEqualTo(RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA);
  }

  @Test
  void aSeparatedRateReadsLimitsAndTheVerdictStaysWhatItWas() {
    CombinedRun plain = Fixtures.separating();
    ExperimentIdentity id = plain.identity().withEquivalenceMargin(DELTA);
    CombinedRun withMargin =
        new CombinedRun(id, reidentified(plain.treatment(), id), reidentified(plain.control(), id));
    VerdictReport without = Verdict.evaluate(plain, VerdictConfig.defaults());
    VerdictReport with = Verdict.evaluate(withMargin, VerdictConfig.defaults());
    assertThat(without.equivalence()).isNull();
    assertThat(with.established()).isEqualTo(without.established()).isTrue();
    assertThat(with.rates()).isEqualTo(without.rates());
    assertThat(with.failures()).isEqualTo(without.failures());
    for (int i = 0; i < with.rates().size(); i++) {
      RateEquivalence r = with.equivalence().rates().get(i);
      if (with.rates().get(i).separated()) {
        assertThat(r.reading()).isEqualTo(RateEquivalence.Reading.LIMITS);
      } else {
        assertThat(r.reading()).isNotEqualTo(RateEquivalence.Reading.LIMITS);
      }
    }
    assertThat(with.equivalence().ratesReading(RateEquivalence.Reading.LIMITS))
        .contains(500.0, 600.0);
    assertThat(with.equivalence().ratesReading(RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA))
        .contains(100.0, 200.0);
    assertThat(with.equivalence().summary()).contains("'on' limits ingest at ");
    assertThat(with.method()).startsWith(without.method()).contains("delta = 0.05");
  }

  @Test
  void noEquivalenceIsNotShownToCostLessThanDelta() {
    // A treatment that costs about 0.1 at one rate: not separated (noisy), not within 0.05.
    ExperimentIdentity id = id(List.of(100.0), 3);
    VerdictReport v = judge(id, new double[][] {{0.95, 0.80, 0.95}}, new double[][] {{1, 1, 1}});
    assertThat(v.rates().get(0).separated()).isFalse();
    assertThat(v.equivalence().rates().get(0).reading())
        .isEqualTo(RateEquivalence.Reading.INCONCLUSIVE);
    assertThat(v.equivalence().summary())
        .startsWith(
            "Equivalence within +-0.05 of accepted/offered is not shown at any rate (TOST at"
                + " family-wise alpha 0.05, Holm across m = 1): not shown to limit is not shown"
                + " to cost less than 0.05.");
  }

  @Test
  void aSingleArmOrAnIdentityWithoutAMarginAnswersNoEquivalenceQuestion() {
    ExperimentIdentity id = id(List.of(100.0), 3);
    HalfRun on = Fixtures.half(id, ON, Fixtures.constant(1, 3, 1.0));
    VerdictReport single = Verdict.evaluateSingleArm(on, VerdictConfig.defaults());
    assertThat(single.equivalence()).isNull();
    assertThat(single.notes())
        .contains(
            "no equivalence figures for the declared margin 0.05: the question needs both arms");
    ExperimentIdentity none = Fixtures.identity(List.of(100.0), 3);
    VerdictReport plain = judge(none, Fixtures.constant(1, 3, 1.0), Fixtures.constant(1, 3, 1.0));
    assertThat(plain.equivalence()).isNull();
    assertThat(plain.method()).doesNotContain("delta");
  }

  @Test
  void aNotComparableRateSaysWhy() {
    ExperimentIdentity id = id(List.of(100.0, 200.0), 3);
    VerdictReport v =
        judge(id, new double[][] {{1, 1, 1}, {1}}, new double[][] {{1, 1, 1}, {1, 1, 1}});
    RateEquivalence r = v.equivalence().rates().get(1);
    assertThat(r.tost()).isNull();
    assertThat(r.reading()).isEqualTo(RateEquivalence.Reading.INCONCLUSIVE);
    assertThat(r.note()).startsWith("not comparable: needs 2 evidence cells per arm");
    assertThat(v.equivalence().comparableRates()).isEqualTo(1);
  }

  @Test
  void combineRefusesHalvesDeclaredWithDifferentMarginsNamingBoth() throws Exception {
    ExperimentIdentity a = id(List.of(100.0), 3);
    ExperimentIdentity b = a.withEquivalenceMargin(0.1);
    HalfRun on = Fixtures.half(a, ON, Fixtures.constant(1, 3, 1.0));
    HalfRun off = Fixtures.half(b, OFF, Fixtures.constant(1, 3, 1.0));
    assertThatThrownBy(() -> Combine.combine(on, off))
        .isInstanceOf(CombineException.class)
        .hasMessageContaining(
            "equivalence_margin differs: 0.05 in the 'on' half vs 0.1 in the 'off' half; the"
                + " margin is declared before the run, so these are two experiments");
    HalfRun offNone =
        Fixtures.half(a.withEquivalenceMargin(null), OFF, Fixtures.constant(1, 3, 1.0));
    assertThatThrownBy(() -> Combine.combine(on, offNone))
        .hasMessageContaining("equivalence_margin differs: 0.05 in the 'on' half vs none");
    // Partner: the same margin in both halves combines.
    HalfRun offSame = Fixtures.half(a, OFF, Fixtures.constant(1, 3, 1.0));
    assertThat(Combine.combine(on, offSame).identity().equivalenceMargin()).isEqualTo(DELTA);
  }

  @Test
  void theReportRoundTripsAndAnOldReportWithoutTheFieldReads() throws Exception {
    ExperimentIdentity id = id(List.of(100.0, 200.0), 3);
    CombinedRun run =
        new CombinedRun(
            id,
            Fixtures.half(id, ON, Fixtures.constant(2, 3, 1.0)),
            Fixtures.half(id, OFF, Fixtures.constant(2, 3, 1.0)));
    ExperimentReport report = ExperimentReport.of(run, VerdictConfig.defaults());
    String json = Json.write(report);
    ExperimentReport back = Json.read(json, "report.json", ExperimentReport.class);
    assertThat(back).isEqualTo(report);
    assertThat(back.recompute()).isEqualTo(report.verdict());
    // A report written before the margin existed: neither field, and it still reads and recomputes.
    ExperimentReport old = ExperimentReport.of(Fixtures.separating(), VerdictConfig.defaults());
    String oldJson =
        Json.write(old)
            .replaceAll(",\\n\\s*\"equivalence_margin\" : null", "")
            .replaceAll(",\\n\\s*\"equivalence\" : null", "");
    assertThat(oldJson).doesNotContain("equivalence");
    ExperimentReport read = Json.read(oldJson, "old.json", ExperimentReport.class);
    assertThat(read).isEqualTo(old);
    assertThat(read.recompute()).isEqualTo(old.verdict());
  }

  private static HalfRun reidentified(HalfRun h, ExperimentIdentity id) {
    return Fixtures.half(id, h.arm(), h.cells());
  }
}
