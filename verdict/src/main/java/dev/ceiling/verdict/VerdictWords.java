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

  /** The equivalence report's answer: where the cost is within delta, where it limits, and why. */
  static String equivalence(
      ExperimentIdentity id, double delta, double alpha, List<RateEquivalence> rates) {
    String d = Fmt.num(delta);
    long m = rates.stream().filter(r -> r.tost() != null).count();
    String how = "(TOST at family-wise alpha " + Fmt.num(alpha) + ", Holm across m = " + m + ")";
    List<String> equivalent = new ArrayList<>();
    List<String> limits = new ArrayList<>();
    List<String> inconclusive = new ArrayList<>();
    List<String> notComparable = new ArrayList<>();
    List<String> floored = new ArrayList<>();
    for (RateEquivalence r : rates) {
      String at = Fmt.num(r.offeredPerS()) + "/s";
      if (r.tost() == null) {
        notComparable.add(at);
        continue;
      }
      switch (r.reading()) {
        case EQUIVALENT_WITHIN_DELTA -> equivalent.add(at);
        case LIMITS -> limits.add(at);
        case INCONCLUSIVE -> inconclusive.add(at);
      }
      if (r.binomialFloor() && r.reading() == RateEquivalence.Reading.EQUIVALENT_WITHIN_DELTA) {
        floored.add(at);
      }
    }
    String t = "'" + id.treatmentArm() + "'";
    StringBuilder sb = new StringBuilder();
    if (!equivalent.isEmpty()) {
      sb.append(t)
          .append(" costs less than ")
          .append(d)
          .append(" of accepted/offered against '")
          .append(id.controlArm())
          .append("' at ")
          .append(String.join(", ", equivalent))
          .append(": equivalent within +-")
          .append(d)
          .append(' ')
          .append(how)
          .append('.');
    } else {
      sb.append("Equivalence within +-")
          .append(d)
          .append(" of accepted/offered is not shown at any rate ")
          .append(how)
          .append(": not shown to limit is not shown to cost less than ")
          .append(d)
          .append('.');
    }
    if (!limits.isEmpty()) {
      sb.append(' ').append(t).append(" limits ingest at ").append(String.join(", ", limits));
      sb.append('.');
    }
    if (!inconclusive.isEmpty()) {
      sb.append(" Inconclusive at ")
          .append(String.join(", ", inconclusive))
          .append(": neither a limit nor a cost below ")
          .append(d)
          .append(" is shown.");
    }
    if (!notComparable.isEmpty()) {
      sb.append(" Not comparable at ").append(String.join(", ", notComparable)).append('.');
    }
    if (!floored.isEmpty()) {
      sb.append(" At ")
          .append(String.join(", ", floored))
          .append(" the cells varied less than their counts' binomial sampling error, which then")
          .append(" set the standard error (independent per-event losses assumed).");
    }
    return sb.toString();
  }

  /** The equivalence question's method, appended to {@link #method} when a margin is declared. */
  static String equivalenceMethod(double delta, double alpha) {
    return " Equivalence (margin declared before the run: delta = "
        + Fmt.num(delta)
        + " of accepted/offered): per comparable rate, two one-sided Welch t-tests (TOST) of"
        + " control minus treatment within +-delta, each at "
        + Fmt.num(alpha)
        + "; the TOST p (the larger one-sided p) is Holm-adjusted across the same m rates, and a"
        + " rate reads EQUIVALENT_WITHIN_DELTA when it is <= "
        + Fmt.num(alpha)
        + " and the rate did not separate (a separated rate reads LIMITS). Each arm's variance is"
        + " at least the binomial variance of one cell's accepted/offered, p(1 - p) / (mean"
        + " offered events per cell) with p = (accepted + 2) / (offered + 4) pooled over the"
        + " arm's cells at the rate: zero spread is never read as zero sampling error.";
  }
}
