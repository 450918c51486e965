package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlReport.esc;
import static dev.ceiling.cli.report.HtmlTables.f;
import static dev.ceiling.cli.report.HtmlTables.opt;
import static dev.ceiling.cli.report.HtmlTables.row;
import static dev.ceiling.cli.report.HtmlTables.tr;

import dev.ceiling.core.model.Cell;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.IdentitiesRoundReport.MeasuredIdentitiesCell;
import dev.ceiling.verdict.AdmissionPlan;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.IdentitiesReport;
import dev.ceiling.verdict.IdentitiesRow;
import dev.ceiling.verdict.IdentitiesVerdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code identities.html}: the defaults round's answer first, then its crossover chart (every
 * cell's accepted and refused share of the offer against the number of signing keys N, the rows'
 * means, and the crossover predicted before the first cell), the rows, every cell with whether its
 * row used it and why not, and the plan. Self-contained like {@link HtmlReport}.
 */
public final class DefaultsRoundHtml {
  /** The page's file name, beside {@code identities.json}. */
  public static final String FILE = "identities.html";

  /** The chart's caption; the browser test finds the chart by it. */
  static final String CROSSOVER = "Accepted and refused share of the offer against N keys";

  private DefaultsRoundHtml() {}

  public static String render(IdentitiesRoundReport r) {
    StringBuilder h = HtmlReport.page("Ceiling defaults round: " + r.profile());
    h.append("<h1>Ceiling: from how many signing keys do the limits of '")
        .append(esc(r.profile()))
        .append("' stop binding?</h1>\n<p class=\"answer\">")
        .append(esc(r.verdict() == null ? "No cell measured: no answer." : r.verdict().words()))
        .append("</p>\n");
    if (!r.complete()) {
      h.append("<p class=\"fail\">Incomplete: ")
          .append(esc(String.valueOf(r.incompleteReason())))
          .append("</p>\n");
    }
    if (r.admission() != null && !r.admission().coverage().covers()) {
      // The round refuses such a plan before its first cell; a file written anyway says why.
      h.append("<p class=\"fail\">")
          .append(esc(r.admission().coverage().refusal()))
          .append("</p>\n");
    }
    h.append("<h2>The crossover</h2>\n").append(chart(r));
    if (r.verdict() != null) {
      h.append("<h2>Per N</h2>\n").append(rowTable(r.verdict()));
    }
    h.append("<h2>Cells</h2>\n").append(cellTable(r.cells()));
    h.append("<details><summary>Plan</summary>\n").append(planTable(r)).append("</details>\n");
    h.append(Charts.library()).append("</body></html>\n");
    return h.toString();
  }

  /**
   * Each measured cell twice, its accepted and its refused share of the offer, the row means of
   * both as lines, and the predicted crossover as a vertical dashed line: where the refused share
   * reaches zero is where the limiter stops binding, and the reader sees at once whether it fell
   * where the declared budgets said it would.
   */
  private static String chart(IdentitiesRoundReport r) {
    List<Charts.Point> accepted = new ArrayList<>();
    List<Charts.Point> refused = new ArrayList<>();
    List<Charts.Point> unused = new ArrayList<>();
    for (MeasuredIdentitiesCell c : r.cells()) {
      double n = c.identities();
      double a = c.cell().acceptedOverOffered();
      double x = IdentitiesVerdict.refused(c.cell());
      if (!Double.isFinite(a)) {
        continue;
      }
      List<Charts.Tip> tip = cellTip(c, a, x);
      if (c.excludedBy() == null) {
        accepted.add(new Charts.Point(n, a, tip));
        refused.add(new Charts.Point(n, x, tip));
      } else {
        unused.add(new Charts.Point(n, a, tip));
      }
    }
    List<Charts.Series> series = new ArrayList<>();
    series.add(series("accepted/offered, cells used", Charts.Draw.POINTS, 1, accepted));
    series.add(series("refused by the limiter, cells used", Charts.Draw.POINTS, 0, refused));
    if (!unused.isEmpty()) {
      series.add(series("accepted/offered, cells not used", Charts.Draw.POINTS, 7, unused));
    }
    if (r.verdict() != null) {
      List<Charts.Point> meanAccepted = new ArrayList<>();
      List<Charts.Point> meanRefused = new ArrayList<>();
      for (IdentitiesRow row : r.verdict().rows()) {
        if (row.acceptedOverOffered() == null || row.limiterRefusedFraction() == null) {
          continue;
        }
        List<Charts.Tip> tip =
            List.of(
                new Charts.Tip("N keys", Integer.toString(row.identities())),
                new Charts.Tip("cells used", row.used() + " of " + row.cells()),
                new Charts.Tip("accepted/offered", f(row.acceptedOverOffered(), 3)),
                new Charts.Tip("refused by the limiter", f(row.limiterRefusedFraction(), 3)),
                new Charts.Tip("reading", row.reading().name()));
        meanAccepted.add(new Charts.Point(row.identities(), row.acceptedOverOffered(), tip));
        meanRefused.add(new Charts.Point(row.identities(), row.limiterRefusedFraction(), tip));
      }
      series.add(series("accepted/offered, mean", Charts.Draw.LINE_AND_POINTS, 1, meanAccepted));
      series.add(series("refused, mean", Charts.Draw.LINE_AND_POINTS, 0, meanRefused));
    }
    Double predicted = predictedKeys(r);
    if (predicted != null && predicted > 0) {
      List<Charts.Tip> tip =
          List.of(
              new Charts.Tip("predicted crossover", "N = " + HtmlTables.num(predicted)),
              new Charts.Tip("from", predictedFrom(r)));
      series.add(
          series(
              "predicted crossover",
              Charts.Draw.DASHED_LINE,
              5,
              List.of(new Charts.Point(predicted, 0, tip), new Charts.Point(predicted, 1, tip))));
    }
    return Charts.chart(
        new Charts.Chart(
            CROSSOVER,
            "N signing keys",
            Charts.Axis.LOG,
            "share of the offer",
            Charts.Axis.LINEAR_FROM_ZERO,
            series.stream().filter(s -> !s.points().isEmpty()).toList()));
  }

  private static Charts.Series series(
      String name, Charts.Draw draw, int colour, List<Charts.Point> points) {
    return new Charts.Series(name, draw, colour, points);
  }

  private static List<Charts.Tip> cellTip(
      MeasuredIdentitiesCell c, double accepted, double refused) {
    Cell cell = c.cell();
    List<Charts.Tip> t = new ArrayList<>();
    t.add(new Charts.Tip("cell", "#" + cell.sequence()));
    t.add(new Charts.Tip("N keys", Integer.toString(c.identities())));
    t.add(new Charts.Tip("repeat", Integer.toString(cell.repeat())));
    t.add(new Charts.Tip("offered", f(cell.offeredPerS(), 0) + "/s"));
    t.add(new Charts.Tip("accepted/offered", f(accepted, 4)));
    t.add(new Charts.Tip("refused by the limiter", f(refused, 4)));
    t.add(new Charts.Tip("used", c.excludedBy() == null ? "yes" : "no: " + why(c.excludedBy())));
    return t;
  }

  /** The crossover in keys predicted before the first cell: the declared budgets', else null. */
  static Double predictedKeys(IdentitiesRoundReport r) {
    AdmissionPlan a = r.admission();
    if (a != null && a.prediction() != null && a.prediction().keys() != null) {
      return a.prediction().keys().doubleValue();
    }
    return r.verdict() == null ? null : r.verdict().predictedCrossover();
  }

  private static String predictedFrom(IdentitiesRoundReport r) {
    AdmissionPlan a = r.admission();
    return a != null && a.prediction() != null && a.prediction().keys() != null
        ? "the profile's declared per-key budget"
        : "the relay's ceiling over its per-identity budget setting";
  }

  private static String why(CellProblem p) {
    return p.kind() + ": " + p.message();
  }

  private static String rowTable(IdentitiesReport v) {
    StringBuilder t = new StringBuilder("<table>\n<tr><th>N keys</th><th>cells used</th>");
    t.append("<th>accepted/offered</th><th>accepted, events/s</th>")
        .append("<th>refused by the limiter</th><th>busy</th><th class=\"l\">reading</th></tr>\n");
    for (IdentitiesRow row : v.rows()) {
      tr(
          t,
          row.identities(),
          row.used() + " of " + row.cells(),
          opt(row.acceptedOverOffered(), 3),
          opt(row.acceptedPerS(), 1),
          opt(row.limiterRefusedFraction(), 3),
          opt(row.busyFraction(), 2),
          HtmlTables.Td.left(row.reading().name()));
    }
    return t.append("</table>\n").toString();
  }

  /** One row per measured cell, in run order, with the problem that kept it out of its row. */
  static String cellTable(List<MeasuredIdentitiesCell> cells) {
    StringBuilder t = new StringBuilder("<table class=\"cells\">\n<tr><th>#</th>");
    t.append("<th>N keys</th><th>repeat</th><th>offered, events/s</th>")
        .append("<th>accepted/offered</th><th>refused by the limiter</th><th>used</th>")
        .append("<th class=\"l\">why not</th></tr>\n");
    for (MeasuredIdentitiesCell c : cells) {
      tr(
          " class=\"cell\"",
          t,
          c.cell().sequence(),
          c.identities(),
          c.cell().repeat(),
          HtmlTables.num(c.cell().offeredPerS()),
          f(c.cell().acceptedOverOffered(), 4),
          f(IdentitiesVerdict.refused(c.cell()), 4),
          c.excludedBy() == null ? "yes" : "no",
          HtmlTables.Td.left(c.excludedBy() == null ? "" : why(c.excludedBy())));
    }
    return t.append("</table>\n").toString();
  }

  private static String planTable(IdentitiesRoundReport r) {
    StringBuilder t = new StringBuilder("<table>\n");
    row(t, "offered rate, events/s", f(r.offeredPerS(), 1));
    row(t, "N keys (fixed before the first cell)", r.identities().toString());
    row(t, "repeats per N", Integer.toString(r.repeats()));
    row(t, "window per cell, s", HtmlTables.num(r.durationS()));
    row(t, "seed of the cell order", r.orderSeed() == null ? "none" : r.orderSeed().toString());
    row(
        t,
        "the relay's ceiling, events/s",
        r.predictedCeilingPerS() == null ? "unknown" : f(r.predictedCeilingPerS(), 1));
    Double predicted = predictedKeys(r);
    row(
        t,
        "predicted crossover",
        predicted == null
            ? "none"
            : "N = " + HtmlTables.num(predicted) + " (" + predictedFrom(r) + ")");
    row(t, "started", String.valueOf(r.startedAt()));
    row(t, "finished", String.valueOf(r.finishedAt()));
    return t.append("</table>\n").toString();
  }
}
