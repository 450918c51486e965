package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.internal.Holm;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The per-rate statistics of {@link Verdict}: each arm's evidence cells at each grid rate, the
 * one-sided Welch test per comparable rate, Holm across them, and the Bonferroni lower bounds.
 * Pure.
 */
final class RateComparisons {
  private RateComparisons() {}

  static List<RateRow> rates(
      ExperimentIdentity id,
      HalfRun treatment,
      HalfRun control,
      Map<String, List<Cell>> evidence,
      VerdictConfig cfg,
      double level) {
    List<Double> grid = id.ratesPerS();
    int k = grid.size();
    ArmStats[] t = new ArmStats[k];
    ArmStats[] c = new ArmStats[k];
    Sample[] ts = new Sample[k];
    Sample[] cs = new Sample[k];
    String[] reason = new String[k];
    List<Integer> comparable = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      double rate = grid.get(i);
      double[] tv = values(evidence.get(id.treatmentArm()), rate);
      double[] cv = values(evidence.get(id.controlArm()), rate);
      t[i] = stats(tv, level);
      c[i] = control == null ? null : stats(cv, level);
      ts[i] = tv.length > 0 ? Sample.of(tv) : null;
      cs[i] = cv.length > 0 ? Sample.of(cv) : null;
      if (treatment == null) {
        reason[i] = "the treatment arm did not run";
      } else if (control == null) {
        reason[i] = "the control arm did not run";
      } else if (tv.length < cfg.minCellsPerArm() || cv.length < cfg.minCellsPerArm()) {
        reason[i] =
            "needs "
                + cfg.minCellsPerArm()
                + " evidence cells per arm, has "
                + tv.length
                + " treatment and "
                + cv.length
                + " control";
      } else {
        comparable.add(i);
      }
    }
    int m = comparable.size();
    double[] p = new double[m];
    Welch.Result[] results = new Welch.Result[m];
    for (int j = 0; j < m; j++) {
      int i = comparable.get(j);
      if (Welch.standardError(cs[i], ts[i]) > 0) {
        results[j] = Welch.test(cs[i], ts[i], cfg.minDifference());
        p[j] = results[j].pGreater();
      } else {
        // Both arms exactly constant: the Welch statistic is undefined (0/0 or x/0). Zero
        // variance is not evidence of zero sampling error, so the rate counts in m and can
        // never separate.
        p[j] = 1.0;
      }
    }
    double[] adj = Holm.adjust(p);
    double intervalLevel = m == 0 ? level : 1 - cfg.familyAlpha() / m;
    Difference[] diffs = new Difference[k];
    boolean[] separated = new boolean[k];
    for (int j = 0; j < m; j++) {
      int i = comparable.get(j);
      double estimate = cs[i].mean() - ts[i].mean();
      Welch.Result r = results[j];
      if (r == null) {
        diffs[i] = new Difference(estimate, 0.0, null, null, null, null, null, intervalLevel, true);
      } else {
        double lower = estimate - Welch.tUpper(r.df(), cfg.familyAlpha() / m) * r.standardError();
        diffs[i] =
            new Difference(
                estimate,
                r.standardError(),
                r.t(),
                r.df(),
                r.pGreater(),
                adj[j],
                lower,
                intervalLevel,
                false);
        separated[i] = adj[j] <= cfg.familyAlpha();
      }
    }
    List<RateRow> rows = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      boolean comp = reason[i] == null;
      rows.add(new RateRow(grid.get(i), t[i], c[i], comp, reason[i], diffs[i], separated[i]));
    }
    return rows;
  }

  static double[] values(List<Cell> cells, double rate) {
    if (cells == null) {
      return new double[0];
    }
    return cells.stream()
        .filter(c -> CellProblems.close(c.offeredPerS(), rate))
        .mapToDouble(Cell::acceptedOverOffered)
        .toArray();
  }

  static ArmStats stats(double[] v, double level) {
    if (v.length == 0) {
      return new ArmStats(0, null, null, null, null, level);
    }
    Sample s = Sample.of(v);
    if (v.length == 1) {
      return new ArmStats(1, s.mean(), null, null, null, level);
    }
    double[] ci = Welch.meanInterval(s, level);
    return new ArmStats(v.length, s.mean(), s.sd(), ci[0], ci[1], level);
  }
}
