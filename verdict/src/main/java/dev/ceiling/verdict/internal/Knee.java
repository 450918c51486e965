package dev.ceiling.verdict.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The knee rule on a grid of per-rate states. A lone dip is not a knee: the knee is the lowest rate
 * that is below AND whose next rate is also below. Pure.
 */
public final class Knee {
  private Knee() {}

  /** One rate's reading. */
  public enum State {
    /** The arm's upper bound is under the threshold. */
    BELOW,
    /** Not below. */
    TRACKING,
    /** Too few cells to say. */
    UNKNOWN
  }

  /**
   * Where the knee is on the grid.
   *
   * @param knee index of the knee, or null
   * @param highestPassing index of the highest TRACKING rate under the knee (or overall), or null
   * @param loneDips indices that were BELOW without a BELOW successor, under the knee
   */
  public record Result(Integer knee, Integer highestPassing, List<Integer> loneDips) {
    public Result {
      loneDips = List.copyOf(loneDips);
    }
  }

  public static Result find(List<State> states) {
    Integer knee = null;
    List<Integer> lone = new ArrayList<>();
    for (int i = 0; i < states.size(); i++) {
      if (states.get(i) != State.BELOW) {
        continue;
      }
      if (i + 1 < states.size() && states.get(i + 1) == State.BELOW) {
        knee = i;
        break;
      }
      lone.add(i);
    }
    int limit = knee == null ? states.size() : knee;
    Integer passing = null;
    for (int i = 0; i < limit; i++) {
      if (states.get(i) == State.TRACKING) {
        passing = i;
      }
    }
    return new Result(knee, passing, lone);
  }
}
