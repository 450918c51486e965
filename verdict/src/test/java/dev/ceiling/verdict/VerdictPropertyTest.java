package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static dev.ceiling.verdict.Fixtures.SIX_RATES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.Property;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Invariants of the verdict over random datasets (seeded; the seed is printed on failure). */
class VerdictPropertyTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();

  private static CombinedRun randomRun(SplittableRandom rnd) {
    ExperimentIdentity id = Fixtures.identity(SIX_RATES, 4);
    double[][] on = new double[6][];
    double[][] off = new double[6][];
    for (int i = 0; i < 6; i++) {
      int nOn = rnd.nextInt(0, 5);
      int nOff = rnd.nextInt(0, 5);
      double mOff = rnd.nextDouble(0.6, 1.0);
      double mOn = mOff - rnd.nextDouble(-0.05, 0.1);
      double sd = rnd.nextBoolean() ? 0.0 : rnd.nextDouble(0.001, 0.03);
      on[i] = draw(rnd, nOn, mOn, sd);
      off[i] = draw(rnd, nOff, mOff, sd);
    }
    return new CombinedRun(id, Fixtures.half(id, ON, on), Fixtures.half(id, OFF, off));
  }

  private static double[] draw(SplittableRandom rnd, int n, double mean, double sd) {
    double[] v = new double[n];
    for (int k = 0; k < n; k++) {
      v[k] = Math.max(0.0, Math.min(1.0, mean + sd * rnd.nextGaussian()));
    }
    return v;
  }

  /** What every report must satisfy. */
  private static void invariants(VerdictReport v) {
    assertThat(v.established()).isEqualTo(v.failures().isEmpty());
    long m = v.rates().stream().filter(RateRow::comparable).count();
    assertThat(v.comparableRates()).isEqualTo((int) m);
    for (RateRow r : v.rates()) {
      if (r.separated()) {
        assertThat(r.difference().degenerate()).isFalse();
        assertThat(r.difference().estimate()).isPositive();
        assertThat(r.difference().pAdjusted()).isLessThanOrEqualTo(CFG.familyAlpha());
      }
      if (r.comparable() && !r.difference().degenerate()) {
        Difference d = r.difference();
        assertThat(d.pAdjusted()).isGreaterThanOrEqualTo(d.pOneSided());
        // A simultaneous (Bonferroni) bound above zero implies a Holm rejection.
        if (d.lowerBound() > 0) {
          assertThat(r.separated())
              .as("bound > 0 at %s/s but not separated", r.offeredPerS())
              .isTrue();
        }
      }
    }
    if (v.established()) {
      assertThat(v.rates()).anyMatch(RateRow::separated);
    }
  }

  @Test
  void everyReportKeepsItsInvariants() {
    Property.forAll(
        "verdict invariants", 300, rnd -> invariants(Verdict.evaluate(randomRun(rnd), CFG)));

    // Mutant: a report whose bound excludes zero while the row says "not separated".
    VerdictReport good = Verdict.evaluate(Fixtures.separating(), CFG);
    List<RateRow> rows = new ArrayList<>(good.rates());
    RateRow r = rows.get(5);
    rows.set(
        5,
        new RateRow(
            r.offeredPerS(), r.treatment(), r.control(), true, null, r.difference(), false));
    VerdictReport mutant =
        new VerdictReport(
            good.established(),
            good.controlMarker(),
            good.failures(),
            rows,
            good.excluded(),
            good.fatal(),
            good.workerRate(),
            good.knee(),
            good.notes(),
            good.method(),
            good.config(),
            good.comparableRates(),
            good.cells(),
            good.clientSideEvidence());
    assertThatThrownBy(() -> invariants(mutant)).isInstanceOf(AssertionError.class);
  }

  @Test
  void theVerdictIsAPureFunctionOfTheCellsNotTheirListOrder() {
    Property.forAll(
        "order independence",
        100,
        rnd -> {
          CombinedRun run = randomRun(rnd);
          List<Cell> shuffled = new ArrayList<>(run.treatment().cells());
          Collections.shuffle(shuffled, new Random(rnd.nextLong()));
          HalfRun t = Fixtures.half(run.identity(), ON, shuffled);
          VerdictReport a = Verdict.evaluate(run, CFG);
          VerdictReport b =
              Verdict.evaluate(new CombinedRun(run.identity(), t, run.control()), CFG);
          assertThat(b.rates()).isEqualTo(a.rates());
          assertThat(b.established()).isEqualTo(a.established());
          assertThat(Verdict.evaluate(run, CFG)).isEqualTo(a);
        });

    // Mutant: a verdict that reads only the first cells of the list depends on their order.
    CombinedRun run = Fixtures.separating();
    List<Cell> reversed = new ArrayList<>(run.treatment().cells());
    Collections.reverse(reversed);
    VerdictReport a = Verdict.evaluate(firstCells(run, run.treatment().cells()), CFG);
    VerdictReport b = Verdict.evaluate(firstCells(run, reversed), CFG);
    assertThatThrownBy(() -> assertThat(b.rates()).isEqualTo(a.rates()))
        .isInstanceOf(AssertionError.class);
  }

  private static CombinedRun firstCells(CombinedRun run, List<Cell> treatmentCells) {
    HalfRun t = Fixtures.half(run.identity(), ON, treatmentCells.subList(0, 9));
    return new CombinedRun(run.identity(), t, run.control());
  }

  @Test
  void swappingTheArmsNeverSeparatesTheSameRateBothWays() {
    Property.forAll(
        "direction",
        200,
        rnd -> {
          CombinedRun run = randomRun(rnd);
          ExperimentIdentity id = run.identity();
          CombinedRun swapped =
              new CombinedRun(
                  id,
                  Fixtures.half(id, ON, relabel(run.control(), ON)),
                  Fixtures.half(id, OFF, relabel(run.treatment(), OFF)));
          neverBothWays(Verdict.evaluate(run, CFG).rates(), Verdict.evaluate(swapped, CFG).rates());
        });

    // Mutant: a direction-blind verdict gives the swapped run the same separated flags.
    List<RateRow> rows = Verdict.evaluate(Fixtures.separating(), CFG).rates();
    assertThatThrownBy(() -> neverBothWays(rows, rows)).isInstanceOf(AssertionError.class);
  }

  private static void neverBothWays(List<RateRow> a, List<RateRow> b) {
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.get(i).separated() && b.get(i).separated()).isFalse();
    }
  }

  private static List<Cell> relabel(HalfRun h, String arm) {
    return h.cells().stream()
        .map(
            c ->
                Fixtures.cell(
                    arm, c.offeredPerS(), c.repeat(), c.sequence(), c.acceptedOverOffered()))
        .toList();
  }
}
