package dev.ceiling.verdict;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The sentences of {@link Verdict}: why no rate was comparable, why none separated, the per-rate
 * notes, and the method paragraph. Pure.
 */
final class VerdictWords {
  private VerdictWords() {}

  static String noComparable(
      ExperimentIdentity id,
      HalfRun treatment,
      HalfRun control,
      List<RateRow> rows,
      List<ExcludedCell> excluded,
      VerdictConfig cfg) {
    String needs = "no rate has " + cfg.minCellsPerArm() + " evidence cells in both arms: ";
    if (id.repeats() < cfg.minCellsPerArm()) {
      return needs
          + "the experiment plans repeats = "
          + id.repeats()
          + " per rate, and a comparison needs "
          + cfg.minCellsPerArm()
          + " cells per arm at a rate (a variance needs two); measure again with more repeats";
    }
    List<String> empty = new ArrayList<>();
    for (HalfRun h : List.of(treatment, control)) {
      if (h.cells().stream().noneMatch(c -> !c.twoCommunity())) {
        empty.add("the '" + h.arm() + "' half has no cells");
      }
    }
    if (!empty.isEmpty()) {
      return needs + String.join(", and ", empty);
    }
    if (excluded.isEmpty()) {
      return needs
          + "no cell was excluded, but the cells do not give each arm "
          + cfg.minCellsPerArm()
          + " at any one rate ("
          + rows.size()
          + " rates)";
    }
    Map<ProblemKind, Integer> byKind = new EnumMap<>(ProblemKind.class);
    for (ExcludedCell e : excluded) {
      e.reasons().stream()
          .filter(CellProblem::excludesEvidence)
          .map(CellProblem::kind)
          .distinct()
          .forEach(kind -> byKind.merge(kind, 1, Integer::sum));
    }
    String reasons =
        byKind.entrySet().stream()
            .map(e -> e.getKey() + " x" + e.getValue())
            .collect(Collectors.joining(", "));
    return "too much of this dataset was excluded: no rate has "
        + cfg.minCellsPerArm()
        + " evidence cells in both arms ("
        + rows.size()
        + " rates, "
        + excluded.size()
        + " cells excluded: "
        + reasons
        + ")";
  }

  static String notSeparated(List<RateRow> rows, int m, VerdictConfig cfg) {
    RateRow best =
        rows.stream()
            .filter(r -> r.comparable() && !r.difference().degenerate())
            .min(Comparator.comparingDouble(r -> r.difference().pAdjusted()))
            .orElse(null);
    String detail =
        best == null
            ? "every comparable rate had exactly constant cells in both arms"
            : "smallest Holm-adjusted p = "
                + Fmt.p(best.difference().pAdjusted())
                + " at "
                + Fmt.num(best.offeredPerS())
                + "/s, difference "
                + Fmt.stat(best.difference().estimate());
    return "not shown to limit ingest: no comparable rate separated (control above treatment) at"
        + " family-wise alpha "
        + Fmt.num(cfg.familyAlpha())
        + " across m = "
        + m
        + " rates; "
        + detail;
  }

  static List<String> rowNotes(List<RateRow> rows) {
    List<String> out = new ArrayList<>();
    List<String> degenerate = new ArrayList<>();
    List<String> reversed = new ArrayList<>();
    for (RateRow r : rows) {
      if (!r.comparable()) {
        continue;
      }
      if (r.difference().degenerate()) {
        degenerate.add(Fmt.num(r.offeredPerS()) + "/s");
      } else if (r.difference().estimate() < 0) {
        reversed.add(Fmt.num(r.offeredPerS()) + "/s");
      }
    }
    if (!degenerate.isEmpty()) {
      out.add(
          "both arms' cells were exactly constant at "
              + String.join(", ", degenerate)
              + ": zero variance gives no estimate of sampling error, so these rates count in"
              + " the correction and cannot separate.");
    }
    if (!reversed.isEmpty()) {
      out.add(
          "the treatment accepted more than the control at "
              + String.join(", ", reversed)
              + ": only control above treatment counts as separation.");
    }
    return out;
  }

  static String method(int m, VerdictConfig cfg) {
    String a = Fmt.num(cfg.familyAlpha());
    String perRate = m == 0 ? "n/a" : String.format(Locale.ROOT, "%.6f", 1 - cfg.familyAlpha() / m);
    return "Per comparable rate (at least "
        + cfg.minCellsPerArm()
        + " evidence cells in each arm), a one-sided Welch t-test (unequal variances,"
        + " Welch-Satterthwaite fractional degrees of freedom; Student-t from Apache Commons"
        + " Statistics) of H0: mean accepted/offered of control minus treatment <= "
        + Fmt.num(cfg.minDifference())
        + ". Family-wise error across the m = "
        + m
        + " comparable rates is held at "
        + a
        + " by Holm's step-down procedure, valid under any dependence between rates; a rate is"
        + " separated when its Holm-adjusted p <= "
        + a
        + ". Each difference carries a simultaneous one-sided Bonferroni lower bound at level "
        + perRate
        + " (1 - alpha/m): a bound above the margin implies separation, but Holm may separate"
        + " where the bound does not. Both arms exactly constant at a rate: no estimate of"
        + " sampling error, so the rate counts in m, enters Holm as p = 1 and cannot separate."
        + " Per-arm intervals are two-sided Student-t at "
        + Fmt.num(1 - cfg.familyAlpha())
        + ", unadjusted and descriptive; no decision reads them. Config: "
        + cfg.describe()
        + ".";
  }
}
