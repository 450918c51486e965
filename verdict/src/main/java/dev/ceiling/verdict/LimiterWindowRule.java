package dev.ceiling.verdict;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The limiter-window rule of the defaults round: a cell reads a sliding-window limiter's steady
 * state only when its warm-up plus its window covers the limiter's window. A shorter cell sees the
 * limiter's first seconds, in which every budget is still unspent, and would read "nothing binds"
 * at an N that production refuses. So the round covers the longest declared window or refuses
 * before starting; without declared limits its answer holds only for limiter windows shorter than
 * its cells, and it says so. Pure.
 */
public final class LimiterWindowRule {
  private LimiterWindowRule() {}

  /**
   * What the round's cells cover.
   *
   * @param longest the declared limit with the longest window, or null when none is declared
   * @param warmupS each cell's warm-up, seconds, >= 0
   * @param windowS each cell's window, seconds, > 0
   */
  public record Coverage(DeclaredBudget longest, double warmupS, double windowS) {
    public Coverage {
      if (!(warmupS >= 0 && Double.isFinite(warmupS))) {
        throw new IllegalArgumentException("warmupS must be a finite number >= 0, got " + warmupS);
      }
      if (!(windowS > 0 && Double.isFinite(windowS))) {
        throw new IllegalArgumentException("windowS must be a finite number > 0, got " + windowS);
      }
    }

    /** The span one cell offers load over, warm-up and window, seconds. */
    public double cellS() {
      return warmupS + windowS;
    }

    /** True when a limit is declared. */
    public boolean declared() {
      return longest != null;
    }

    /** True when the cells cover the longest declared window (vacuously, with none declared). */
    public boolean covers() {
      return longest == null || cellS() >= longest.windowS();
    }

    /** The shortest window that covers the longest declared one at this warm-up, seconds. */
    public double shortestCoveringWindowS() {
      return longest == null ? windowS : Math.max(windowS, longest.windowS() - warmupS);
    }

    /**
     * The one-line refusal when the cells do not cover, or null when they do: names the window and
     * the shortest cell that would cover it.
     */
    public String refusal() {
      if (covers()) {
        return null;
      }
      return "the declared admission limit \""
          + longest.description()
          + "\" has a "
          + Fmt.num(longest.windowS())
          + " s window, and a cell's warm-up ("
          + Fmt.num(warmupS)
          + " s) plus window ("
          + Fmt.num(windowS)
          + " s) covers only "
          + Fmt.num(cellS())
          + " s: it would read the limiter's first seconds, not its steady state; the shortest"
          + " cell that covers it has a window of "
          + Fmt.num(shortestCoveringWindowS())
          + " s at this warm-up (--duration)";
    }

    /** What the answer holds for, in a sentence. */
    public String scope() {
      return declared()
          ? "Each cell ("
              + Fmt.num(warmupS)
              + " s warm-up + "
              + Fmt.num(windowS)
              + " s window) covers the longest declared limiter window ("
              + Fmt.num(longest.windowS())
              + " s)."
          : "The profile declares no admission limits: this answer holds only for limiter windows"
              + " shorter than its cells ("
              + Fmt.num(warmupS)
              + " s warm-up + "
              + Fmt.num(windowS)
              + " s window).";
    }
  }

  /** The coverage of cells of this warm-up and window against the declared limits. */
  public static Coverage of(List<DeclaredBudget> declared, double warmupS, double windowS) {
    Objects.requireNonNull(declared, "declared must not be null");
    DeclaredBudget longest =
        declared.stream().max(Comparator.comparingDouble(DeclaredBudget::windowS)).orElse(null);
    return new Coverage(longest, warmupS, windowS);
  }
}
