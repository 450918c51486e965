package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The per-point offer on the cells of a recorded real sweep ({@code three-delays.json}: delays 4,
 * 3, 2, 4, 2, 3 ms in that order, ceilings 21.4, 31.0, 45.6, 26.4, 48.3, 33.8/s, first offer 80/s).
 * The expected offers were computed apart from this code (NumPy, an unweighted line of 1000 / C on
 * the planned delay), so the rule's arithmetic is checked, not restated.
 */
class PointOffersTest {
  private static DelaySweepReport recorded;

  @BeforeAll
  static void read() throws Exception {
    try (InputStream in =
        PointOffersTest.class.getResourceAsStream("sensitivity/three-delays.json")) {
      recorded =
          Json.read(
              new String(in.readAllBytes(), StandardCharsets.UTF_8),
              "three-delays.json",
              DelaySweepReport.class);
    }
  }

  private static DelaySweepPlan perPoint(double multiple, double fillPerS) {
    DelaySweepPlan p = recorded.plan();
    return p.toBuilder()
        .offerRule("per point")
        .perPointOffer(new DelaySweepPlan.PerPointOffer(multiple, fillPerS))
        .build();
  }

  private static List<DelaySweepCell> first(int n) {
    return recorded.cells().subList(0, n);
  }

  @Test
  void aPlanWithoutARuleOffersItsOneRateAtEveryCell() {
    DelaySweepPlan fixed = recorded.plan();
    assertThat(fixed.perPointOffer()).isNull();
    for (int i = 0; i < 6; i++) {
      assertThat(PointOffers.offer(fixed, first(i), 4.0)).isEqualTo(80.0);
    }
  }

  @Test
  void theLineThroughTheCellsBeforePredictsEachOffer() {
    DelaySweepPlan plan = perPoint(1.5, 0);
    // Cells at 4, 3, 2 ms: 1000 / C = 12.38 d - 3.52, so 21.74/s at 4 ms and 1.5 x that is 32.6.
    assertThat(PointOffers.offer(plan, first(3), 4.0)).isEqualTo(33.0);
    assertThat(PointOffers.offer(plan, first(4), 2.0)).isEqualTo(68.0);
    assertThat(PointOffers.offer(plan, first(5), 3.0)).isEqualTo(47.0);
  }

  @Test
  void theFirstOfferUntilTwoDelaysAndWhereTheLinePredictsNoCeilingAndAsTheCap() {
    DelaySweepPlan plan = perPoint(1.5, 0);
    assertThat(PointOffers.offer(plan, first(0), 4.0)).isEqualTo(80.0);
    assertThat(PointOffers.offer(plan, first(1), 3.0)).isEqualTo(80.0);
    // Through 4 and 3 ms, 1.5 x the 56.3/s predicted at 2 ms is 84: more than the first offer.
    assertThat(PointOffers.offer(plan, first(2), 2.0)).isEqualTo(80.0);
    // The line through 4, 3 and 2 ms is below zero at d = 0 (-3.5 ms per event): no prediction.
    assertThat(PointOffers.offer(plan, first(3), 0.0)).isEqualTo(80.0);
  }

  @Test
  void theQueueFillIsAddedWhenItIsMoreThanTheMultiple() {
    // 21.74 + 20 = 41.7 is more than 1.5 x 21.74 = 32.6; + 100 reaches the first offer.
    assertThat(PointOffers.offer(perPoint(1.5, 20), first(3), 4.0)).isEqualTo(42.0);
    assertThat(PointOffers.offer(perPoint(1.5, 100), first(3), 4.0)).isEqualTo(80.0);
  }

  /** A cell the A/B's rules did not use is no point of the line (partner: the same cell used). */
  @Test
  void aCellTheRulesDidNotUseIsLeftOut() {
    List<DelaySweepCell> cells = new ArrayList<>(first(4));
    DelaySweepCell c = cells.get(3);
    cells.set(3, c.toBuilder().busy(false).ceilingUsed(false).build());
    // The line through the first three, at 2 ms: 47.09/s, so 71; with the fourth used, 68.
    assertThat(PointOffers.offer(perPoint(1.5, 0), cells, 2.0)).isEqualTo(71.0);
    assertThat(PointOffers.offer(perPoint(1.5, 0), first(4), 2.0)).isEqualTo(68.0);
  }
}
