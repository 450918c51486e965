package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.ExperimentIdentity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CellPlanTest {
  static ExperimentIdentity id(String order, Long seed) {
    return new ExperimentIdentity(
        "p",
        "on",
        "off",
        List.of(100.0, 200.0, 300.0),
        1,
        3,
        order,
        seed,
        List.of("h"),
        Map.of(),
        null,
        "g",
        null,
        null,
        null,
        java.util.Map.of());
  }

  @Test
  void ascendingPlansEveryRateAndRepeatInOrder() {
    List<PlannedCell> p = CellPlan.plan(id("ascending", null), false);
    assertThat(p).hasSize(9);
    assertThat(p.stream().map(PlannedCell::offeredPerS).toList())
        .containsExactly(100.0, 100.0, 100.0, 200.0, 200.0, 200.0, 300.0, 300.0, 300.0);
    assertThat(p.stream().map(PlannedCell::sequence).toList())
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
  }

  @Test
  void shuffledIsAPermutationReproducibleFromTheSeed() {
    List<PlannedCell> a = CellPlan.plan(id("shuffled", 7L), false);
    List<PlannedCell> b = CellPlan.plan(id("shuffled", 7L), false);
    List<PlannedCell> c = CellPlan.plan(id("shuffled", 8L), false);
    assertThat(a).isEqualTo(b);
    assertThat(a).isNotEqualTo(c);
    assertThat(a.stream().map(PlannedCell::offeredPerS).sorted().toList())
        .isEqualTo(
            CellPlan.plan(id("ascending", null), false).stream()
                .map(PlannedCell::offeredPerS)
                .toList());
  }

  @Test
  void twoCommunityCellsFollowAndAreMarked() {
    List<PlannedCell> p = CellPlan.plan(id("ascending", null), true);
    assertThat(p).hasSize(18);
    assertThat(p.subList(0, 9)).noneMatch(PlannedCell::twoCommunity);
    assertThat(p.subList(9, 18)).allMatch(PlannedCell::twoCommunity);
  }

  /**
   * The split design's pairs: each (rate, repeat) once as two adjacent cells, one of each kind, in
   * the identity's order; which kind runs first is seeded, the same for the same seed, and varies
   * (a plan that always ran "one" first would pass every other check here and fail this one).
   */
  @Test
  void splitPairsAreAdjacentOneOfEachKindWithASeededFirst() {
    List<PlannedCell> p = CellPlan.splitPairs(id("shuffled", 7L));
    assertThat(p).hasSize(18);
    List<PlannedCell> singles = CellPlan.plan(id("shuffled", 7L), false);
    for (int i = 0; i < 9; i++) {
      PlannedCell a = p.get(2 * i);
      PlannedCell b = p.get(2 * i + 1);
      assertThat(a.sequence()).isEqualTo(2 * i);
      assertThat(b.sequence()).isEqualTo(2 * i + 1);
      assertThat(a.offeredPerS())
          .isEqualTo(b.offeredPerS())
          .isEqualTo(singles.get(i).offeredPerS());
      assertThat(a.repeat()).isEqualTo(b.repeat()).isEqualTo(singles.get(i).repeat());
      assertThat(a.twoCommunity()).isNotEqualTo(b.twoCommunity());
    }
    assertThat(CellPlan.splitPairs(id("shuffled", 7L))).isEqualTo(p);
    List<Boolean> splitFirst =
        java.util.stream.IntStream.range(0, 9).mapToObj(i -> p.get(2 * i).twoCommunity()).toList();
    assertThat(splitFirst).contains(true, false);
  }
}
