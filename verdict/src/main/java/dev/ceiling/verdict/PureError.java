package dev.ceiling.verdict;

import dev.ceiling.verdict.internal.WeightedLine;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.statistics.distribution.FDistribution;

/**
 * The lack-of-fit test of a weighted line against the pure error of repeats at equal x, and each
 * delay's standardized departure. Pure; package-private: {@link Sensitivity} is the API.
 */
final class PureError {
  private PureError() {}

  /**
   * @param x delays in ascending order (equal values adjacent)
   * @param y 1 / ceiling, ms per event
   * @param w weights
   */
  static LackOfFit test(double[] x, double[] y, double[] w, WeightedLine line, double alpha) {
    List<int[]> groups = groups(x);
    int m = groups.size();
    int n = x.length;
    double sspe = 0;
    double[] sumW = new double[m];
    double[] mean = new double[m];
    for (int g = 0; g < m; g++) {
      int[] range = groups.get(g);
      double sw = 0;
      double swy = 0;
      for (int i = range[0]; i < range[1]; i++) {
        sw += w[i];
        swy += w[i] * y[i];
      }
      sumW[g] = sw;
      mean[g] = swy / sw;
      for (int i = range[0]; i < range[1]; i++) {
        sspe += w[i] * (y[i] - mean[g]) * (y[i] - mean[g]);
      }
    }
    String reason = null;
    if (m < 3) {
      reason = "a line needs 3 delays to be tested, has " + m;
    } else if (n - m < 1) {
      reason = "no delay has a repeat, so there is no pure error";
    } else if (!(sspe > 0)) {
      reason = "the repeats at every delay are identical, so the pure error is exactly 0";
    }
    double mspe = reason == null ? sspe / (n - m) : Double.NaN;
    List<LevelDeparture> levels = new ArrayList<>();
    for (int g = 0; g < m; g++) {
      double xg = x[groups.get(g)[0]];
      // Var(group mean - fitted) = sigma^2 (1/W_g - Var(fitted)/sigma^2): the fitted value shares
      // the group's own points, so the departure's variance is less than the group mean's.
      double factor = 1 / sumW[g] - line.fittedVariance(xg, 1.0);
      Double z =
          reason == null && factor > 0 ? (mean[g] - line.at(xg)) / Math.sqrt(mspe * factor) : null;
      int reps = groups.get(g)[1] - groups.get(g)[0];
      levels.add(new LevelDeparture(xg, reps, mean[g], line.at(xg), z));
    }
    if (reason != null) {
      return new LackOfFit(
          LackOfFit.Status.UNTESTABLE, null, null, null, null, alpha, levels, List.of(), reason);
    }
    int dfLof = m - 2;
    int dfPe = n - m;
    double f = Math.max(0, line.sse() - sspe) / dfLof / mspe;
    double p = FDistribution.of(dfLof, dfPe).survivalProbability(f);
    boolean rejected = p <= alpha;
    List<LevelDeparture> departing =
        rejected ? departing(levels, Welch.tUpper(dfPe, alpha / (2 * m))) : List.of();
    return new LackOfFit(
        rejected ? LackOfFit.Status.REJECTED : LackOfFit.Status.NOT_REJECTED,
        f,
        dfLof,
        dfPe,
        p,
        alpha,
        levels,
        departing,
        null);
  }

  /** Half-open index ranges [from, to) of equal x. */
  private static List<int[]> groups(double[] x) {
    List<int[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 1; i <= x.length; i++) {
      if (i == x.length || x[i] != x[start]) {
        out.add(new int[] {start, i});
        start = i;
      }
    }
    return out;
  }

  private static List<LevelDeparture> departing(List<LevelDeparture> levels, double critical) {
    Comparator<LevelDeparture> largestFirst =
        Comparator.comparingDouble(
                (LevelDeparture l) -> l.standardized() == null ? -1 : Math.abs(l.standardized()))
            .reversed();
    List<LevelDeparture> sorted = levels.stream().sorted(largestFirst).toList();
    List<LevelDeparture> beyond =
        sorted.stream()
            .filter(l -> l.standardized() != null && Math.abs(l.standardized()) > critical)
            .toList();
    // The F test pools every delay, so it can reject while no single delay passes its own
    // Bonferroni bar; the largest departure is still the one to look at.
    return beyond.isEmpty() ? List.of(sorted.get(0)) : beyond;
  }
}
