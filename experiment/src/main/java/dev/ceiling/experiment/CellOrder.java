package dev.ceiling.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The one planner every design orders its cells with: each level of the design's grid (an offered
 * rate, an added delay, a number of signing keys) times each repeat, in an order that is a pure
 * function of the grid, the repeats, the design's {@link Shuffle} policy and the seed, so a resumed
 * round and a second arm plan exactly the same cells. A design declares its policy where it plans,
 * with the reason it takes it.
 */
final class CellOrder {
  private CellOrder() {}

  /** How a design spreads its cells over the run's time. */
  enum Shuffle {
    /**
     * Every level x repeat in one seeded shuffle (level-major before it, and in that order when
     * there is no seed): the cells are spread over the run's time at random, which a fit over the
     * whole grid wants.
     */
    WHOLE_PLAN,
    /**
     * Repeat by repeat, each repeat every level once in its own seeded order (ascending when there
     * is no seed), one generator drawn across the repeats: a randomised block, so a round stopped
     * after k repeats has measured every level k times.
     */
    WITHIN_REPEAT
  }

  /** One planned slot: a level of the grid and its repeat at that level, from 0. */
  record Slot<L>(L level, int repeat) {}

  /**
   * The slots of {@code levels} x {@code repeats} in the order {@code shuffle} gives with {@code
   * seed}; null seed: unshuffled (level-major for {@link Shuffle#WHOLE_PLAN}, repeat-major for
   * {@link Shuffle#WITHIN_REPEAT}).
   */
  static <L> List<Slot<L>> of(List<L> levels, int repeats, Shuffle shuffle, Long seed) {
    List<Slot<L>> out = new ArrayList<>();
    switch (shuffle) {
      case WHOLE_PLAN -> {
        for (L level : levels) {
          for (int r = 0; r < repeats; r++) {
            out.add(new Slot<>(level, r));
          }
        }
        if (seed != null) {
          Collections.shuffle(out, new Random(seed));
        }
      }
      case WITHIN_REPEAT -> {
        Random random = seed == null ? null : new Random(seed);
        for (int r = 0; r < repeats; r++) {
          List<L> order = new ArrayList<>(levels);
          if (random != null) {
            Collections.shuffle(order, random);
          }
          for (L level : order) {
            out.add(new Slot<>(level, r));
          }
        }
      }
    }
    return List.copyOf(out);
  }
}
