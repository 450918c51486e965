package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one planner keeps every design's order as each design planned it on its own before (a resumed
 * round and a stored plan must read the same cells): the references below are the designs' former
 * planners, written out again here, and the planner must match them for many seeds.
 */
class CellOrderTest {
  private static final List<Double> GRID = List.of(0.0, 2.5, 5.0, 10.0);

  /** The A/B's and the delay sweep's former planner: level-major pairs, one shuffle. */
  private static List<String> wholePlanReference(List<Double> levels, int repeats, Long seed) {
    List<double[]> pairs = new ArrayList<>();
    for (double d : levels) {
      for (int r = 0; r < repeats; r++) {
        pairs.add(new double[] {d, r});
      }
    }
    if (seed != null) {
      Collections.shuffle(pairs, new Random(seed));
    }
    return pairs.stream().map(p -> p[0] + "/" + (int) p[1]).toList();
  }

  /** The defaults round's former planner: repeat by repeat, one generator across them. */
  private static List<String> withinRepeatReference(List<Double> levels, int repeats, Long seed) {
    List<String> out = new ArrayList<>();
    Random shuffle = seed == null ? null : new Random(seed);
    for (int r = 0; r < repeats; r++) {
      List<Double> order = new ArrayList<>(levels);
      if (shuffle != null) {
        Collections.shuffle(order, shuffle);
      }
      for (double n : order) {
        out.add(n + "/" + r);
      }
    }
    return out;
  }

  private static List<String> words(List<CellOrder.Slot<Double>> slots) {
    return slots.stream().map(s -> s.level() + "/" + s.repeat()).toList();
  }

  @Test
  void eachPolicyKeepsItsDesignsFormerOrderForEverySeed() {
    for (long seed = 0; seed < 200; seed++) {
      assertThat(words(CellOrder.of(GRID, 3, CellOrder.Shuffle.WHOLE_PLAN, seed)))
          .as("whole plan, seed %d", seed)
          .isEqualTo(wholePlanReference(GRID, 3, seed));
      assertThat(words(CellOrder.of(GRID, 3, CellOrder.Shuffle.WITHIN_REPEAT, seed)))
          .as("within repeat, seed %d", seed)
          .isEqualTo(withinRepeatReference(GRID, 3, seed));
    }
    assertThat(words(CellOrder.of(GRID, 2, CellOrder.Shuffle.WHOLE_PLAN, null)))
        .containsExactly("0.0/0", "0.0/1", "2.5/0", "2.5/1", "5.0/0", "5.0/1", "10.0/0", "10.0/1");
    assertThat(words(CellOrder.of(GRID, 2, CellOrder.Shuffle.WITHIN_REPEAT, null)))
        .containsExactly("0.0/0", "2.5/0", "5.0/0", "10.0/0", "0.0/1", "2.5/1", "5.0/1", "10.0/1");
  }

  @Test
  void withinRepeatMeasuresEveryLevelOncePerRepeat() {
    for (long seed = 0; seed < 50; seed++) {
      List<CellOrder.Slot<Double>> slots =
          CellOrder.of(GRID, 3, CellOrder.Shuffle.WITHIN_REPEAT, seed);
      for (int r = 0; r < 3; r++) {
        assertThat(slots.subList(r * GRID.size(), (r + 1) * GRID.size()))
            .as("seed %d, repeat %d", seed, r)
            .extracting(CellOrder.Slot::level)
            .containsExactlyInAnyOrderElementsOf(GRID);
      }
    }
  }

  /** Partner: the whole-plan shuffle does not keep repeats as blocks, so the policies differ. */
  @Test
  void wholePlanDoesNotKeepRepeatsAsBlocks() {
    int mixed = 0;
    for (long seed = 0; seed < 50; seed++) {
      List<CellOrder.Slot<Double>> slots =
          CellOrder.of(GRID, 3, CellOrder.Shuffle.WHOLE_PLAN, seed);
      if (slots.subList(0, GRID.size()).stream().map(CellOrder.Slot::level).distinct().count()
          < GRID.size()) {
        mixed++;
      }
    }
    assertThat(mixed).isGreaterThan(25);
  }
}
