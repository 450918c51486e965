package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ceiling.core.json.Json;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.WhatIf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checked what-if in a delay sweep's plan and report, from {@link
 * DelaySweepFromTheClientTest}'s synthetic cells (1000 / C = 5 + 3 d ms per event over d = 0 to 3
 * ms, three repeats scattered by 0.3%) with a holdout at 1.5 ms: its cells are in the plan,
 * shuffled with the grid's, measured, and left out of the line; where they lie on the line they
 * read INSIDE, and where the ceiling stops following the delay (a plateau at twice the line's
 * ceiling there) OUTSIDE.
 */
class DelaySweepWhatIfTest {
  private static final double AT_MS = 1.5;
  private static final DelaySweepPlan PLAN =
      DelaySweepFromTheClientTest.PLAN.toBuilder().cells(null).holdoutDelayMs(AT_MS).build();

  @TempDir Path dir;

  private static DelaySweepReport sweep(ToDoubleFunction<DelaySweepPlan.Cell> ceiling) {
    List<DelaySweepAnalysis.Measured> measured = new ArrayList<>();
    for (DelaySweepPlan.Cell p : PLAN.cells()) {
      measured.add(
          new DelaySweepAnalysis.Measured(
              p,
              DelaySweepFromTheClientTest.saturated(p, ceiling.applyAsDouble(p)),
              new LinkCounters(1, 0, 3 * (600 + 3000), 0, 0, 0, 0),
              null));
    }
    return DelaySweepAnalysis.report(
        "nostream",
        DelaySweepFromTheClientTest.metricsLess(),
        DelaySweepFromTheClientTest.identity(PLAN.cells().size()),
        PLAN,
        measured,
        DelaySweepAnswerTest.DONE,
        DelaySweepFromTheClientTest.CFG);
  }

  /** On the line at the holdout too. */
  private static double onTheLine(DelaySweepPlan.Cell p) {
    return DelaySweepFromTheClientTest.ceiling(p);
  }

  /** On the line at the grid; at the holdout, twice the line's ceiling (a plateau). */
  private static double plateauAtTheHoldout(DelaySweepPlan.Cell p) {
    return PLAN.isHoldout(p) ? 2 * onTheLine(p) : onTheLine(p);
  }

  @Test
  void theHoldoutIsPlannedBeforeTheFirstCellAndShuffledWithTheGrid() {
    // Three repeats at each of the 4 grid delays and at the holdout's, by the same rule.
    assertThat(PLAN.cells()).hasSize(15);
    assertThat(PLAN.cells().stream().filter(PLAN::isHoldout).map(DelaySweepPlan.Cell::repeat))
        .containsExactlyInAnyOrder(0, 1, 2);
    assertThat(PLAN.cells())
        .isEqualTo(DelaySweepPlan.shuffledCells(List.of(0.0, 1.0, 1.5, 2.0, 3.0), 3, PLAN.seed()));
    // Partner: without a holdout the order is exactly the one before the what-if existed.
    assertThat(DelaySweepFromTheClientTest.PLAN.cells())
        .isEqualTo(
            DelaySweepPlan.shuffledCells(
                DelaySweepFromTheClientTest.PLAN.delaysMs(), 3, PLAN.seed()));
    assertThat(DelaySweepFromTheClientTest.PLAN.cells()).noneMatch(PLAN::isHoldout);
  }

  @Test
  void aHoldoutOnTheGridOrBeyondTheProxysLimitIsRefused() {
    assertThat(DelaySweepPlan.problemsOfHoldout(List.of(0.0, 1.0), 1.0))
        .containsExactly(
            "holdout delay 1.0 ms is on the swept grid [0.0, 1.0]: a what-if is checked off the"
                + " grid, by cells the line never saw");
    assertThat(DelaySweepPlan.problemsOfHoldout(List.of(0.0, 1.0), -0.5))
        .containsExactly("holdout delay must be in [0, 10000] ms, got -0.5");
    assertThat(DelaySweepPlan.problemsOfHoldout(List.of(0.0, 1.0), 20_000.0)).hasSize(1);
    assertThat(DelaySweepPlan.problemsOfHoldout(List.of(0.0, 1.0), 0.5)).isEmpty();
    assertThatThrownBy(
            () ->
                DelaySweepFromTheClientTest.PLAN.toBuilder()
                    .cells(null)
                    .holdoutDelayMs(2.0)
                    .build())
        .hasMessageContaining("holdout delay 2.0 ms is on the swept grid");
  }

  @Test
  void aHoldoutOnTheLineReadsInsideAndIsLeftOutOfTheFit() throws Exception {
    DelaySweepReport r = sweep(DelaySweepWhatIfTest::onTheLine);
    // The line is the grid's 12 cells; the holdout's 3 are measured, usable, and not in it.
    assertThat(r.cells()).hasSize(15);
    assertThat(r.fit().points()).isEqualTo(12);
    assertThat(r.points()).extracting(DelaySweepPoint::addedDelayMs).doesNotContain(AT_MS);
    DelaySweepWhatIf w = r.whatIf();
    assertThat(w).isNotNull();
    assertThat(w.holdoutCellsMeasured()).isEqualTo(3);
    assertThat(w.holdoutCellsUsed()).isEqualTo(3);
    assertThat(w.ceiling().placement()).isEqualTo(WhatIf.Placement.INSIDE);
    assertThat(w.ceiling().predicted()).isCloseTo(1000 / (5 + 3 * AT_MS), within(1.0));
    assertThat(w.ceiling().holdoutRepeats()).isEqualTo(3);
    // Within the swept delays: what a link down to 0 ms gives, the line's own 200/s.
    assertThat(w.fasterLink()).isNotNull();
    assertThat(w.fasterLink().atDelayMs()).isEqualTo(0.0);
    assertThat(w.fasterLink().predicted()).isCloseTo(200, within(2.0));
    assertThat(r.answer())
        .contains("what-if at 1.5 ms to 'db' (3 of 3 holdout cell(s) usable")
        .contains(": inside")
        .contains("a faster link, down to 0 ms, would raise the ceiling from 105/s to 200/s");
    // The file holds it and reads back: the holdout's cells are the plan's, off the grid.
    Path f = dir.resolve("sensitivity.json");
    Json.write(f, r);
    assertThat(Files.readString(f)).contains("\"holdout_delay_ms\" : 1.5", "\"what_if\"");
    assertThat(DelaySweepFile.problems(DelaySweepFile.read(f))).isEmpty();
  }

  @Test
  void aHoldoutWhereTheCeilingStopsFollowingTheDelayReadsOutside() {
    DelaySweepReport r = sweep(DelaySweepWhatIfTest::plateauAtTheHoldout);
    // The same line as on the line: the holdout never moved it.
    DelaySweepReport inside = sweep(DelaySweepWhatIfTest::onTheLine);
    assertThat(r.fit()).isEqualTo(inside.fit());
    assertThat(r.whatIf().ceiling().placement()).isEqualTo(WhatIf.Placement.OUTSIDE);
    assertThat(r.whatIf().ceiling().measured()).isCloseTo(2 * 1000 / (5 + 3 * AT_MS), within(2.0));
    assertThat(r.answer()).contains(": outside, the line does not hold out to 1.5 ms");
  }

  /**
   * The answer names the declared delay as the user gave it and a delay the link really added (the
   * faster link's, the smallest swept point's realized delay) to 2 decimals; the partner: 1.25 ms
   * keeps its second decimal, and a declared 0.125 ms is not rounded.
   */
  @Test
  void theAnswerGivesTheDeclaredDelayAsGivenAndARealizedOneToTwoDecimals() {
    assertThat(DelaySweepWhatIf.asGiven(1.5)).isEqualTo("1.5");
    assertThat(DelaySweepWhatIf.asGiven(0.125)).isEqualTo("0.125");
    assertThat(DelaySweepWhatIf.asGiven(0.0)).isEqualTo("0");
    assertThat(DelaySweepWhatIf.asGiven(2.0)).isEqualTo("2");
    assertThat(DelaySweepWhatIf.realizedMs(1.3315268041753654)).isEqualTo("1.33");
    assertThat(DelaySweepWhatIf.realizedMs(1.4999999)).isEqualTo("1.5");
    assertThat(DelaySweepWhatIf.realizedMs(1.25)).isEqualTo("1.25");
    assertThat(DelaySweepWhatIf.realizedMs(2.2186943649625377E-4)).isEqualTo("0");
  }
}
