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
import java.util.ArrayList;
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
      List<Object> cells = new ArrayList<>(List.of(f(row.offeredPerS(), 0)));
      cells.addAll(stats(row.treatment()));
      cells.addAll(stats(row.control()));
      var d = row.difference();
      if (d == null) {
        // A rate that could not be compared says why in the test's columns: a blank would read
        // as "no difference", which is a different finding.
        cells.add(Td.left(4, row.notComparableReason() == null ? "-" : row.notComparableReason()));
      } else {
        cells.add(f(d.estimate(), 4));
        cells.add(d.lowerBound() == null ? "-" : f(d.lowerBound(), 4));
        cells.add(f(d.intervalLevel(), 4));
        // Constant arms have no test (see METHODOLOGY.md, Degenerate data): named, not p = 1.
        cells.add(
            d.pAdjusted() == null ? (d.degenerate() ? "degenerate" : "-") : f(d.pAdjusted(), 4));
      }
      cells.add(Td.left(row.separated() ? "yes" : "no"));
      tr(t, cells.toArray());
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
      Tost tost = r.tost();
      Td reading = Td.left(words(r.reading(), e.margin()));
      if (tost == null) {
        tr(t, f(r.offeredPerS(), 0), Td.left(6, r.note()), reading);
      } else {
        tr(
            t,
            f(r.offeredPerS(), 0),
            f(r.cost(), 4),
            "[" + f(tost.lower(), 4) + ", " + f(tost.upper(), 4) + "]",
            f(tost.level(), 2),
            f(tost.p(), 4),
            f(r.pAdjusted(), 4),
            r.binomialFloor() ? "yes" : "no",
            reading);
      }
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

  private static List<String> stats(ArmStats a) {
    if (a == null || a.mean() == null) {
      return List.of("-", "-");
    }
    // n beside the mean: a mean of two cells and one of ten look alike otherwise.
    return List.of(
        f(a.mean(), 4) + " (n=" + a.n() + ")",
        a.lower() == null ? "-" : "[" + f(a.lower(), 4) + ", " + f(a.upper(), 4) + "]");
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
      StringBuilder reasons = new StringBuilder();
      for (CellProblem p : e.reasons()) {
        reasons.append(esc(p.kind() + ": " + p.message())).append("<br>");
      }
      tr(
          t,
          Td.left(e.cell().arm()),
          f(e.cell().offeredPerS(), 0) + (e.cell().twoCommunity() ? " (2c)" : ""),
          e.cell().repeat(),
          e.cell().sequence(),
          new Td(" class=\"l\"", reasons.toString()));
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
        tr(
            t,
            Td.left(c.arm()),
            f(c.offeredPerS(), 0) + (c.twoCommunity() ? " (2c)" : ""),
            c.repeat(),
            f(c.acceptedOverOffered(), 4),
            opt(c.auditCompletedPerS(), 1),
            c.outstandingDelta() == null ? "-" : c.outstandingDelta(),
            opt(c.auditBusyFraction(), 3),
            percentile(c.service().p50Ms(), 2),
            percentile(c.scheduled().p99Ms(), 2),
            percentile(c.sendLag().p99Ms(), 3),
            opt(c.wakeFloorP99Ms(), 3),
            f(c.drainWaitS(), 2),
            opt(c.loadPerCpuBefore(), 2) + "→" + opt(c.loadPerCpuAfter(), 2));
      }
    }
    return t.append("</table>\n").toString();
  }

  /**
   * A data cell with attributes: left-aligned text ({@link #left}), or one spanning columns. Its
   * {@code html} is markup already escaped.
   */
  record Td(String attributes, String html) {
    /** Text from a file, escaped, aligned left. */
    static Td left(String text) {
      return new Td(" class=\"l\"", esc(text));
    }

    /** Text from a file, escaped, aligned left, over {@code columns} columns. */
    static Td left(int columns, String text) {
      return new Td(" class=\"l\" colspan=\"" + columns + "\"", esc(text));
    }
  }

  /**
   * One table row: each cell a {@link Td}, or anything else as its text, which must be a number or
   * markup already escaped.
   */
  static void tr(StringBuilder t, Object... cells) {
    tr("", t, cells);
  }

  /** One table row with the row's {@code attributes} (" class=\"cell\""), as {@link #tr}. */
  static void tr(String attributes, StringBuilder t, Object... cells) {
    t.append("<tr").append(attributes).append('>');
    for (Object c : cells) {
      if (c instanceof Td td) {
        t.append("<td").append(td.attributes()).append('>').append(td.html()).append("</td>");
      } else {
        t.append("<td>").append(c).append("</td>");
      }
    }
    t.append("</tr>\n");
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

  /**
   * {@code v} with {@code decimals} places, the same in every Locale: the page's and the console's.
   */
  static String f(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
