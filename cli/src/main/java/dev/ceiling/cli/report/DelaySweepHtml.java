package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlReport.esc;
import static dev.ceiling.cli.report.HtmlTables.f;
import static dev.ceiling.cli.report.HtmlTables.opt;
import static dev.ceiling.cli.report.HtmlTables.row;
import static dev.ceiling.cli.report.HtmlTables.tr;

import dev.ceiling.experiment.DelaySweepCell;
import dev.ceiling.experiment.DelaySweepPlan;
import dev.ceiling.experiment.DelaySweepPoint;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.DelaySweepSession;
import dev.ceiling.experiment.DelaySweepWhatIf;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.SensitivityFit;
import dev.ceiling.verdict.WhatIf;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code sensitivity.html}: a delay sweep's answer first, then the line it was read from (each used
 * cell's milliseconds per event against the delay the proxy really added, with the fitted 1/C = k d
 * + c), the points, every cell with what the A/B's rules made of it, and the plan that was fixed
 * before the first cell. Self-contained like {@link HtmlReport}: the chart's script and data are in
 * the page, nothing is fetched.
 */
public final class DelaySweepHtml {
  /** The limits of the model, printed with every result, on the page as on the console. */
  public static final String CANNOT_SAY =
      "round trips on a link the sweep did not delay, and CPU work that does not grow with the"
          + " delay, are in the intercept, never in k.";

  /** The page's file name, beside {@code sensitivity.json}. */
  public static final String FILE = "sensitivity.html";

  private DelaySweepHtml() {}

  public static String render(DelaySweepReport r) {
    StringBuilder h = HtmlReport.page("Ceiling sensitivity: " + r.profile());
    h.append("<h1>Ceiling: round trips per event on link '")
        .append(esc(r.plan().link()))
        .append("'</h1>\n<p class=\"answer\">")
        .append(esc(r.answer()))
        .append("</p>\n<p class=\"")
        .append(r.established() ? "pass\">ESTABLISHED" : "fail\">NOT ESTABLISHED")
        .append("</p>\n");
    if (!r.complete()) {
      h.append("<p class=\"fail\">Incomplete: ").append(esc(r.incompleteReason())).append("</p>\n");
    }
    h.append("<p>What a pass cannot say: ").append(esc(CANNOT_SAY)).append("</p>\n");
    h.append("<h2>1 / C against the added delay</h2>\n").append(chart(r));
    h.append("<h2>Points</h2>\n").append(pointTable(r.points()));
    if (r.whatIf() != null) {
      h.append("<h2>What-if at ")
          .append(esc(f(r.whatIf().atDelayMs(), 3)))
          .append(" ms (checked by a holdout)</h2>\n")
          .append(whatIfTable(r.whatIf()));
    }
    h.append("<h2>Cells</h2>\n").append(cellTable(r.cells()));
    if (r.sessions() != null && r.sessions().size() > 1) {
      h.append("<h2>Sessions</h2>\n").append(sessionTable(r.sessions()));
    }
    h.append("<details><summary>Plan and fit</summary>\n")
        .append(planTable(r))
        .append("</details>\n");
    h.append(Charts.library()).append("</body></html>\n");
    return h.toString();
  }

  /**
   * The fit's own data: every cell whose worker rate is a point of the fit, at its delay's realized
   * x, and the fitted line over the same x range; beside them, greyed, the measured cells the fit
   * did not use, each saying why, so that a reader sees what was left out and not only what was
   * kept.
   */
  private static String chart(DelaySweepReport r) {
    List<Charts.Point> cells = new ArrayList<>();
    List<Charts.Point> unused = new ArrayList<>();
    List<Charts.Point> holdout = new ArrayList<>();
    for (DelaySweepCell c : r.cells()) {
      Double rate = c.cell().auditCompletedPerS();
      if (rate == null || rate <= 0) {
        continue;
      }
      double ms = 1000 / rate;
      if (r.plan().isHoldout(c.planned())) {
        // The what-if's holdout: measured, never a point of the line; where the check was made.
        Double at = r.whatIf() == null ? null : r.whatIf().realizedDelayMs();
        double x = at == null ? c.planned().addedDelayMs() : at;
        holdout.add(new Charts.Point(x, ms, cellTip(c, x, ms)));
        continue;
      }
      double x = DelaySweepPoint.fitX(r.points(), c.planned().addedDelayMs());
      (c.ceilingUsed() ? cells : unused).add(new Charts.Point(x, ms, cellTip(c, x, ms)));
    }
    List<Charts.Series> series = new ArrayList<>();
    series.add(
        new Charts.Series("cells used (" + cells.size() + ")", Charts.Draw.POINTS, 1, cells));
    if (!unused.isEmpty()) {
      series.add(
          new Charts.Series(
              "cells not used (" + unused.size() + ")", Charts.Draw.POINTS, 7, unused));
    }
    if (!holdout.isEmpty()) {
      series.add(
          new Charts.Series(
              "holdout, left out of the line (" + holdout.size() + ")",
              Charts.Draw.POINTS,
              3,
              holdout));
    }
    SensitivityFit fit = r.fit();
    if (fit != null && !cells.isEmpty()) {
      double lo = cells.stream().mapToDouble(Charts.Point::x).min().orElseThrow();
      double hi = cells.stream().mapToDouble(Charts.Point::x).max().orElseThrow();
      double k = fit.roundTripsPerEvent().value();
      double c = fit.interceptMsPerEvent().value();
      series.add(line(FIT_LEGEND, Charts.Draw.LINE, 0, k, c, lo, hi, fit.message()));
      if (r.wireTurnsPerEvent() != null) {
        // The proxy's own count as a slope through the cells' centre: where the timing fit and
        // the wire count agree, the two lines lie on each other; where not, their slopes differ.
        double w = r.wireTurnsPerEvent();
        double meanX = cells.stream().mapToDouble(Charts.Point::x).average().orElseThrow();
        double meanY = cells.stream().mapToDouble(Charts.Point::y).average().orElseThrow();
        series.add(
            line(
                "slope of the wire count (" + f(w, 2) + " turns per entry)",
                Charts.Draw.DASHED_LINE,
                2,
                w,
                meanY - w * meanX,
                lo,
                hi,
                "the proxy counted " + f(w, 3) + " wire turns per audit entry"));
      }
    }
    return Charts.chart(
        new Charts.Chart(
            "Worker ms per event (1000 / worker rate) against the delay the proxy added",
            "added round-trip delay, ms (realized)",
            Charts.Axis.LINEAR_FROM_ZERO,
            "ms per event",
            Charts.Axis.LINEAR_FROM_ZERO,
            series));
  }

  /** What hovering a sweep's cell shows: which cell, its figures, and whether the fit used it. */
  private static List<Charts.Tip> cellTip(DelaySweepCell c, double x, double ms) {
    List<Charts.Tip> t = new ArrayList<>();
    t.add(new Charts.Tip("cell", "#" + c.planned().sequence()));
    t.add(new Charts.Tip("added delay", HtmlTables.num(c.planned().addedDelayMs()) + " ms"));
    t.add(new Charts.Tip("realized delay", f(x, 3) + " ms"));
    t.add(new Charts.Tip("repeat", Integer.toString(c.planned().repeat())));
    t.add(new Charts.Tip("offered", f(c.cell().offeredPerS(), 0) + "/s"));
    t.add(new Charts.Tip("accepted/offered", f(c.cell().acceptedOverOffered(), 4)));
    t.add(new Charts.Tip("worker", opt(c.cell().auditCompletedPerS(), 1) + " events/s"));
    t.add(new Charts.Tip("ms per event", f(ms, 3)));
    t.add(new Charts.Tip("turns per entry", opt(c.turnsPerEvent(), 2)));
    t.add(
        new Charts.Tip(
            "scheduled p99",
            c.cell().scheduled().p99Ms() == null
                ? "n/a"
                : f(c.cell().scheduled().p99Ms(), 2) + " ms"));
    String why =
        c.problems().stream().map(DelaySweepHtml::problem).collect(Collectors.joining("; "));
    t.add(
        new Charts.Tip(
            "used by the fit",
            c.ceilingUsed()
                ? "yes" + (why.isEmpty() ? "" : " (" + why + ")")
                : "no: " + (why.isEmpty() ? c.use().toString() : why)));
    return t;
  }

  /** The fitted line's legend. */
  static final String FIT_LEGEND = "fit: 1/C = k d + c";

  private static Charts.Series line(
      String name,
      Charts.Draw draw,
      int colour,
      double slope,
      double intercept,
      double lo,
      double hi,
      String what) {
    List<Charts.Point> ends = new ArrayList<>();
    for (double x : new double[] {lo, hi}) {
      double y = slope * x + intercept;
      ends.add(
          new Charts.Point(
              x,
              y,
              List.of(
                  new Charts.Tip("line", name),
                  new Charts.Tip("at delay", f(x, 3) + " ms"),
                  new Charts.Tip("ms per event", f(y, 3)),
                  new Charts.Tip("slope, intercept", f(slope, 3) + ", " + f(intercept, 3)),
                  new Charts.Tip("from", what))));
    }
    return new Charts.Series(name, draw, colour, ends);
  }

  /**
   * The what-if: each line's prediction at the holdout's delay with its interval, the holdout's
   * measurement and where it fell; and what a faster link gives, within the swept delays.
   */
  private static String whatIfTable(DelaySweepWhatIf w) {
    StringBuilder t =
        new StringBuilder(
            "<table>\n<tr><th>line</th><th>at, ms</th><th>predicted</th><th>interval</th>"
                + "<th>holdout repeats</th><th>measured</th><th>reads</th></tr>\n");
    whatIfRow(t, "ceiling, events/s", w.ceiling(), w.ceilingProblem());
    if (w.latency() != null || w.latencyProblem() != null) {
      whatIfRow(t, "OK latency, ms", w.latency(), w.latencyProblem());
    }
    if (w.fasterLink() != null) {
      whatIfRow(t, "ceiling with a faster link, events/s", w.fasterLink(), null);
    }
    t.append("</table>\n<p>").append(esc(w.answer())).append("</p>\n");
    return t.toString();
  }

  private static void whatIfRow(StringBuilder t, String name, WhatIf w, String problem) {
    t.append("<tr><td>").append(esc(name)).append("</td>");
    if (w == null) {
      t.append("<td colspan=\"6\">").append(esc(problem)).append("</td></tr>\n");
      return;
    }
    t.append("<td>")
        .append(f(w.atDelayMs(), 3))
        .append("</td><td>")
        .append(f(w.predicted(), 1))
        .append("</td><td>[")
        .append(f(w.lower(), 1))
        .append(", ")
        .append(w.upper() == null ? "unbounded" : f(w.upper(), 1))
        .append("] (")
        .append(f(100 * w.level(), 0))
        .append("%)</td><td>")
        .append(w.holdoutRepeats())
        .append("</td><td>")
        .append(w.measured() == null ? "" : f(w.measured(), 1))
        .append("</td><td class=\"")
        .append(
            switch (w.placement()) {
              case INSIDE -> "pass\">inside";
              case OUTSIDE -> "fail\">outside";
              case NOT_CHECKED -> "\">not checked";
            })
        .append("</td></tr>\n");
  }

  private static String pointTable(List<DelaySweepPoint> points) {
    StringBuilder t = new StringBuilder("<table>\n<tr><th>added delay, ms</th>");
    t.append("<th>realized, ms</th><th>cells used</th><th>worker, events/s</th>")
        .append("<th>ms per event</th><th>wire turns per entry</th></tr>\n");
    for (DelaySweepPoint p : points) {
      tr(
          t,
          HtmlTables.num(p.addedDelayMs()),
          opt(p.realizedDelayMs(), 3),
          p.cellsUsed() + " of " + p.cellsMeasured(),
          opt(p.meanCeilingPerS(), 1),
          opt(p.meanMsPerEvent(), 3),
          opt(p.wireTurnsPerEvent(), 2));
    }
    return t.append("</table>\n").toString();
  }

  /** One row per measured cell, in run order, with every problem the A/B's rules found. */
  static String cellTable(List<DelaySweepCell> cells) {
    StringBuilder t = new StringBuilder("<table class=\"cells\">\n<tr><th>#</th>");
    t.append("<th>delay, ms</th><th>repeat</th><th>offered, events/s</th><th>use</th>")
        .append("<th>fit point</th>")
        .append("<th>worker, events/s</th><th>turns per entry</th>")
        .append("<th class=\"l\">problems</th></tr>\n");
    for (DelaySweepCell c : cells) {
      String problems =
          c.problems().stream().map(DelaySweepHtml::problem).collect(Collectors.joining("; "));
      tr(
          " class=\"cell\"",
          t,
          c.planned().sequence(),
          HtmlTables.num(c.planned().addedDelayMs()),
          c.planned().repeat(),
          HtmlTables.num(c.cell().offeredPerS()),
          c.use(),
          c.ceilingUsed() ? "yes" : "no",
          opt(c.cell().auditCompletedPerS(), 1),
          opt(c.turnsPerEvent(), 2),
          HtmlTables.Td.left(problems));
    }
    return t.append("</table>\n").toString();
  }

  private static String problem(CellProblem p) {
    return p.kind() + (p.excludesEvidence() ? "" : " (noted)") + ": " + p.message();
  }

  /**
   * A resumed sweep's sessions, each on its own relay: which cells ran on which, so a reader can
   * tell whether a point's cells span relays (one session is the plain case, and has no table).
   */
  private static String sessionTable(List<DelaySweepSession> sessions) {
    StringBuilder t = new StringBuilder("<table>\n<tr><th>session</th><th>relay (rig id)</th>");
    t.append("<th>started</th><th>finished</th><th>cells (planned sequence, in run order)</th>")
        .append("</tr>\n");
    for (DelaySweepSession s : sessions) {
      tr(
          t,
          s.number(),
          esc(s.rigId()),
          s.startedAt(),
          s.finishedAt() == null ? "did not finish" : s.finishedAt().toString(),
          s.cells().isEmpty() ? "none" : esc(s.cells().toString()));
    }
    return t.append("</table>\n").toString();
  }

  private static String planTable(DelaySweepReport r) {
    DelaySweepPlan p = r.plan();
    StringBuilder t = new StringBuilder("<table>\n");
    row(t, "link", p.link());
    row(t, "delays, ms (fixed before the first cell)", p.delaysMs().toString());
    row(t, "repeats per delay", Integer.toString(p.repeats()));
    row(
        t,
        p.perPointOffer() == null ? "offered rate, events/s" : "first offer, events/s",
        f(p.offeredPerS(), 1) + " (" + p.offerRule() + ")");
    row(t, "window per cell, s", HtmlTables.num(p.durationS()));
    row(t, "seed of the cell order", Long.toString(p.seed()));
    row(
        t,
        "declared round trips",
        p.expectedRoundTrips() == null
            ? "none"
            : HtmlTables.num(p.expectedRoundTrips()) + " +- " + HtmlTables.num(p.margin()));
    row(t, "fit", r.fit() == null ? "none: " + r.fitProblem() : r.fit().message());
    row(t, "against the declared count", r.countCheck() == null ? "-" : r.countCheck().message());
    row(t, "wire turns per audit entry", opt(r.wireTurnsPerEvent(), 3));
    row(t, "relay", r.rig() == null ? r.profile() : r.rig().relayInfo().getOrDefault("relay", "-"));
    row(t, "started", String.valueOf(r.startedAt()));
    row(t, "finished", String.valueOf(r.finishedAt()));
    return t.append("</table>\n").toString();
  }
}
