package dev.ceiling.verdict.internal;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down procedure: family-wise error control at alpha under any dependence between the
 * tests. Pure and thread-safe.
 */
public final class Holm {
  private Holm() {}

  /**
   * Holm-adjusted p-values: sort ascending, p_adj(k) = max over j &lt;= k of min(1, (m - j + 1)
   * p(j)), returned in the input order. Rejecting where p_adj &lt;= alpha is Holm's procedure.
   */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
    double[] adj = new double[m];
    double running = 0;
    for (int k = 0; k < m; k++) {
      int i = order[k];
      running = Math.max(running, Math.min(1.0, (m - k) * p[i]));
      adj[i] = running;
    }
    return adj;
  }
}
