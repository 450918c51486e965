package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlReport.esc;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.ArmStats;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.EquivalenceReport;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.RateEquivalence;
import dev.ceiling.verdict.RateRow;
import dev.ceiling.verdict.Tost;
import dev.ceiling.verdict.VerdictReport;
import java.util.List;
import java.util.Locale;

/**
 * The HTML report's tables: per rate, excluded cells, every cell, and the key/value rows of the run
 * metadata. Formats only; every figure comes from the verdict or the cells.
 */
final class HtmlTables {
  private HtmlTables() {}

  /**
   * One row per grid rate with both arms, the difference, its simultaneous lower bound and the
   * Holm-adjusted p: every figure the separation decision used, side by side, so a reader can check
   * each "yes" without the JSON.
   */
  static String rateTable(ExperimentReport r) {
    StringBuilder t =
        new StringBuilder(
            "<table><tr><th>offered/s</th><th>treatment mean</th>"
                + "<th>treatment interval</th><th>control mean</th><th>control interval</th>"
                + "<th>control - treatment</th><th>adjusted lower bound</th><th>level</th>"
                + "<th>p (Holm)</th><th class=\"l\">separated</th></tr>\n");
    for (RateRow row : r.verdict().rates()) {
      t.append("<tr><td>").append(f(row.offeredPerS(), 0)).append("</td>");
      stats(t, row.treatment());
      stats(t, row.control());
      if (row.difference() == null) {
        // A rate that could not be compared says why in the test's columns: a blank would read
        // as "no difference", which is a different finding.
        t.append("<td class=\"l\" colspan=\"4\">")
            .append(esc(row.notComparableReason() == null ? "-" : row.notComparableReason()))
            .append("</td>");
      } else {
        var d = row.difference();
        t.append("<td>")
            .append(f(d.estimate(), 4))
            .append("</td><td>")
            .append(d.lowerBound() == null ? "-" : f(d.lowerBound(), 4))
            .append("</td><td>")
            .append(f(d.intervalLevel(), 4))
            .append("</td><td>")
            // Constant arms have no test (see METHODOLOGY.md, Degenerate data): named, not p = 1.
            .append(
                d.pAdjusted() == null ? (d.degenerate() ? "degenerate" : "-") : f(d.pAdjusted(), 4))
            .append("</td>");
      }
      t.append("<td class=\"l\">").append(row.separated() ? "yes" : "no").append("</td></tr>\n");
    }
    return t.append("</table>\n").toString();
  }

  /**
   * One row per grid rate with the equivalence question's figures: the cost, the TOST's interval,
   * its p and Holm-adjusted p, whether the binomial floor set the standard error, and the reading.
   */
  static String equivalenceTable(EquivalenceReport e) {
    StringBuilder t =
        new StringBuilder(
            "<table><tr><th>offered/s</th><th>control - treatment</th><th>interval</th>"
                + "<th>level</th><th>TOST p</th><th>p (Holm)</th><th>binomial floor</th>"
                + "<th class=\"l\">reading</th></tr>\n");
    for (RateEquivalence r : e.rates()) {
      t.append("<tr><td>").append(f(r.offeredPerS(), 0)).append("</td>");
      Tost tost = r.tost();
      if (tost == null) {
        t.append("<td class=\"l\" colspan=\"6\">").append(esc(r.note())).append("</td>");
      } else {
        t.append("<td>")
            .append(f(r.cost(), 4))
            .append("</td><td>[")
            .append(f(tost.lower(), 4))
            .append(", ")
            .append(f(tost.upper(), 4))
            .append("]</td><td>")
            .append(f(tost.level(), 2))
            .append("</td><td>")
            .append(f(tost.p(), 4))
            .append("</td><td>")
            .append(f(r.pAdjusted(), 4))
            .append("</td><td>")
            .append(r.binomialFloor() ? "yes" : "no")
            .append("</td>");
      }
      t.append("<td class=\"l\">")
          .append(esc(words(r.reading(), e.margin())))
          .append("</td></tr>\n");
    }
    return t.append("</table>\n").toString();
  }

  /** "EQUIVALENT WITHIN 0.05", "LIMITS" or "INCONCLUSIVE". */
  static String words(RateEquivalence.Reading reading, double margin) {
    return switch (reading) {
      case EQUIVALENT_WITHIN_DELTA -> "EQUIVALENT WITHIN " + num(margin);
      case LIMITS -> "LIMITS";
      case INCONCLUSIVE -> "INCONCLUSIVE";
    };
  }

  /** A plain decimal without trailing zeros: 0.05. */
  static String num(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  private static void stats(StringBuilder t, ArmStats a) {
    if (a == null || a.mean() == null) {
      t.append("<td>-</td><td>-</td>");
      return;
    }
    // n beside the mean: a mean of two cells and one of ten look alike otherwise.
    t.append("<td>").append(f(a.mean(), 4)).append(" (n=").append(a.n()).append(")</td><td>");
    t.append(a.lower() == null ? "-" : "[" + f(a.lower(), 4) + ", " + f(a.upper(), 4) + "]");
    t.append("</td>");
  }

  /** Every excluded cell with every reason, so an exclusion is never a bare count. */
  static String excludedTable(VerdictReport v) {
    if (v.excluded().isEmpty()) {
      return "<p>None.</p>\n";
    }
    StringBuilder t =
        new StringBuilder(
            "<table><tr><th class=\"l\">arm</th><th>offered/s</th><th>repeat</th><th>seq</th>"
                + "<th class=\"l\">reasons</th></tr>\n");
    for (ExcludedCell e : v.excluded()) {
      t.append("<tr><td class=\"l\">")
          .append(esc(e.cell().arm()))
          .append("</td><td>")
          .append(f(e.cell().offeredPerS(), 0))
          .append(e.cell().twoCommunity() ? " (2c)" : "")
          .append("</td><td>")
          .append(e.cell().repeat())
          .append("</td><td>")
          .append(e.cell().sequence())
          .append("</td><td class=\"l\">");
      for (CellProblem p : e.reasons()) {
        t.append(esc(p.kind() + ": " + p.message())).append("<br>");
      }
      t.append("</td></tr>\n");
    }
    return t.append("</table>\n").toString();
  }

  /**
   * Every cell as measured, excluded ones included: the raw figures behind the rate table, with the
   * machine's state (wake floor, drain wait, load) beside the figures it could have distorted.
   */
  static String cellTable(List<HalfRun> halves) {
    StringBuilder t =
        new StringBuilder(
            "<table><tr><th class=\"l\">arm</th><th>offered/s</th><th>rep</th><th>acc/off</th>"
                + "<th>completed/s</th><th>outstanding Δ</th><th>busy</th><th>service p50 ms</th>"
                + "<th>scheduled p99 ms</th><th>send lag p99 ms</th><th>wake floor p99 ms</th>"
                + "<th>drain s</th>"
                + "<th>load/CPU before→after</th></tr>\n");
    for (HalfRun half : halves) {
      for (Cell c : half.cells()) {
        t.append("<tr><td class=\"l\">")
            .append(esc(c.arm()))
            .append("</td><td>")
            .append(f(c.offeredPerS(), 0))
            .append(c.twoCommunity() ? " (2c)" : "")
            .append("</td><td>")
            .append(c.repeat())
            .append("</td><td>")
            .append(f(c.acceptedOverOffered(), 4))
            .append("</td><td>")
            .append(opt(c.auditCompletedPerS(), 1))
            .append("</td><td>")
            .append(c.outstandingDelta() == null ? "-" : c.outstandingDelta())
            .append("</td><td>")
            .append(opt(c.auditBusyFraction(), 3))
            .append("</td><td>")
            .append(percentile(c.service().p50Ms(), 2))
            .append("</td><td>")
            .append(percentile(c.scheduled().p99Ms(), 2))
            .append("</td><td>")
            .append(percentile(c.sendLag().p99Ms(), 3))
            .append("</td><td>")
            .append(opt(c.wakeFloorP99Ms(), 3))
            .append("</td><td>")
            .append(f(c.drainWaitS(), 2))
            .append("</td><td>")
            .append(opt(c.loadPerCpuBefore(), 2))
            .append("→")
            .append(opt(c.loadPerCpuAfter(), 2))
            .append("</td></tr>\n");
      }
    }
    return t.append("</table>\n").toString();
  }

  static void row(StringBuilder h, String k, String v) {
    h.append("<tr><th class=\"l\">")
        .append(esc(k))
        .append("</th><td class=\"l\">")
        .append(esc(v))
        .append("</td></tr>");
  }

  /** A latency percentile: "n/a" for an empty distribution, which has none. */
  private static String percentile(Double v, int decimals) {
    return v == null ? "n/a" : opt(v, decimals);
  }

  /** A figure with {@code decimals} places, or "-" where there is none. */
  static String opt(Double v, int decimals) {
    return v == null ? "-" : f(v, decimals);
  }

  static String f(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
