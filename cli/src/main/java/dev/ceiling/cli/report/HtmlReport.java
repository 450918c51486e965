package dev.ceiling.cli.report;

import com.google.common.html.HtmlEscapers;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.verdict.ArmStats;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellRef;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Failure;
import dev.ceiling.verdict.FatalProblem;
import dev.ceiling.verdict.RateRow;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictReport;
import dev.ceiling.verdict.WorkerRate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A self-contained HTML report: the answer in words first ({@link Answer}), then interactive charts
 * ({@link Charts}: uPlot and the data inlined, every cell a point that shows its figures on hover),
 * tables ({@link HtmlTables}), the method folded below the results, and the run's metadata. No
 * network, so the file can be archived, mailed and opened offline years later. Figures come from
 * the verdict and the raw cells; latency percentiles per rate are read from the cells' merged
 * histograms.
 */
public final class HtmlReport {
  private HtmlReport() {}

  /**
   * Page style. Everything must fit a phone (390 px) as well as a desktop (1,400 px) without
   * sideways scrolling, which hides columns a reader then never sees: charts take their figure's
   * width, wide tables shrink their font and break long words rather than overflow, and the
   * identity's JSON wraps.
   */
  static final String STYLE =
      "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 8px;color:#222}"
          + "table{border-collapse:collapse;margin:1em 0;font-size:13px;max-width:100%}"
          + "td,th{border:1px solid #ccc;padding:3px 7px;text-align:right;overflow-wrap:anywhere}"
          + "th{background:#f3f3f3}td.l,th.l{text-align:left}"
          + "pre{white-space:pre-wrap;overflow-wrap:anywhere}"
          + ".answer{font-size:1.15em;line-height:1.4}"
          + ".pass{color:#1e7b34;font-weight:bold}.fail{color:#b00020;font-weight:bold}"
          + ".model{background:#fff3cd;padding:.5em}code{font-size:12px}"
          + "@media (max-width:700px){body{margin:1em auto}"
          + "table{font-size:10px}td,th{padding:2px 3px}}";

  /**
   * A page's start, up to and including {@code <body>}: the document type, the character set, a
   * viewport (without it a phone lays the page out 980 px wide and shrinks it to unreadable), the
   * escaped title and {@link #STYLE}. Every page Ceiling writes starts here.
   */
  static StringBuilder page(String title) {
    return new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>")
        .append(esc(title))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head><body>\n");
  }

  public static String render(ExperimentReport report) {
    VerdictReport v = report.verdict();
    StringBuilder h = page("Ceiling report: " + report.identity().profile());
    h.append("<h1>Ceiling: does '")
        .append(esc(report.identity().treatmentArm()))
        .append("' limit ingest?</h1>\n");
    answer(h, report, v);
    results(h, report, v);
    // The method is for the reader who wants to check the answer, so it follows the results,
    // folded; the answer above already carries the figures and the error rate that decided it.
    h.append("<details><summary>Method</summary><p>")
        .append(esc(capitalized(v.controlPhrase())))
        .append(". ")
        .append(esc(v.method()))
        .append("</p></details>\n");
    metadata(h, report);
    h.append(Charts.library()).append("</body></html>\n");
    return h.toString();
  }

  /** The answer in words, the verdict's label, every failure, and what the run could not see. */
  private static void answer(StringBuilder h, ExperimentReport report, VerdictReport v) {
    if (report.model()) {
      h.append("<p class=\"model\">MODEL OUTPUT: arithmetic for review, never evidence.</p>\n");
    }
    Answer a = Answer.of(report);
    h.append("<p class=\"answer\">").append(esc(a.sentence())).append("</p>\n");
    if (a.equivalence() != null) {
      h.append("<p class=\"answer equivalence\">Equivalence: ")
          .append(esc(a.equivalence()))
          .append("</p>\n");
    }
    // The label stays its own element: scripts and the browser test read the verdict from it.
    h.append("<p class=\"")
        .append(v.established() ? "pass\">" : "fail\">")
        .append(esc(v.label()))
        .append("</p>\n");
    // Beside the label: a control that could not show its path was off is said, not implied.
    h.append("<p>").append(esc(capitalized(v.controlPhrase()))).append(".</p>\n");
    if (v.clientSideEvidence()) {
      // Under the headline, not only among the notes: what a client-side pass cannot see.
      h.append("<p>").append(esc(Verdict.CLIENT_EVIDENCE_NOTE)).append("</p>\n");
    }
    if (!v.failures().isEmpty()) {
      h.append("<ul>");
      for (Failure f : v.failures()) {
        h.append("<li class=\"fail\">NOT ESTABLISHED: ").append(esc(f.message())).append("</li>");
      }
      h.append("</ul>\n");
    }
    if (!a.nextSteps().isEmpty()) {
      h.append("<h2>What this run could not see</h2><ul>");
      for (String step : a.nextSteps()) {
        h.append("<li>").append(esc(capitalized(step))).append("</li>");
      }
      h.append("</ul>\n");
    }
  }

  /** Charts and tables, from the figures that decided to the cells they came from. */
  private static void results(StringBuilder h, ExperimentReport report, VerdictReport v) {
    h.append("<h2>Accepted / offered</h2>\n").append(acceptanceChart(report));
    h.append(HtmlTables.rateTable(report));
    if (v.equivalence() != null) {
      h.append("<h2>Equivalence within +-")
          .append(esc(HtmlTables.num(v.equivalence().margin())))
          .append(" of accepted/offered</h2>\n")
          .append(HtmlTables.equivalenceTable(v.equivalence()));
    }
    h.append("<h2>Latency: scheduled (from the intended slot) vs service (from the send)</h2>\n");
    h.append(latencyChart(report));
    h.append(percentileChart(report, "scheduled", Cell::scheduled));
    h.append(percentileChart(report, "service", Cell::service));
    h.append("<h2>Audit worker</h2>\n").append(busyChart(report));
    workerRate(h, v);
    if (v.knee() != null) {
      h.append("<p>Knee (report-only, nothing gates on it): ")
          .append(esc(v.knee().note()))
          .append("</p>\n");
    }
    h.append("<h2>Excluded cells</h2>\n").append(HtmlTables.excludedTable(v));
    if (!v.fatal().isEmpty()) {
      h.append("<h2>Fatal problems</h2><ul>");
      for (FatalProblem f : v.fatal()) {
        h.append("<li class=\"fail\">").append(esc(f.kind() + ": " + f.message())).append("</li>");
      }
      h.append("</ul>\n");
    }
    h.append("<h2>Notes</h2><ul>");
    for (String n : v.notes()) {
      h.append("<li>").append(esc(n)).append("</li>");
    }
    h.append("</ul>\n");
    h.append("<h2>Cells</h2>\n").append(HtmlTables.cellTable(halves(report)));
  }

  private static void workerRate(StringBuilder h, VerdictReport v) {
    WorkerRate w = v.workerRate();
    if (w != null) {
      h.append(
          String.format(
              Locale.ROOT,
              "<p>Worker completion rate: <b>%.1f/s</b> [%s, %s] at level %.3f from %d cells. %s</p>%n",
              w.estimatePerS(),
              w.lowerPerS() == null ? "-" : String.format(Locale.ROOT, "%.1f", w.lowerPerS()),
              w.upperPerS() == null ? "-" : String.format(Locale.ROOT, "%.1f", w.upperPerS()),
              w.level(),
              w.cellsUsed().size(),
              esc(w.note())));
    } else if (v.clientSideEvidence()) {
      h.append("<p>").append(esc(capitalized(Verdict.CLIENT_NO_WORKER_RATE_NOTE))).append("</p>\n");
    } else {
      // Said outright: a missing figure would read as an omission, not as a finding.
      h.append("<p>No worker-rate estimate: no evidence cell was steady and busy.</p>\n");
    }
  }

  /** The identity and each arm's rig: what was run, for anyone reproducing or auditing it. */
  private static void metadata(StringBuilder h, ExperimentReport report) {
    h.append("<h2>Run metadata</h2>\n");
    h.append(
        "<p>Load per CPU is the 1-minute load average over the CPU count: an exponentially"
            + " weighted average, too coarse to resolve one cell; it shows a machine that was busy with"
            + " something else.</p>\n");
    h.append("<h3>Identity</h3><pre><code>")
        .append(esc(Json.write(report.identity())))
        .append("</code></pre>\n");
    for (HalfRun half : halves(report)) {
      h.append("<h3>Rig: arm '").append(esc(half.arm())).append("'</h3><table>");
      Long pid = half.rig().relayPid();
      HtmlTables.row(
          h, "relay pid", pid == null ? "none (attached: not started by the rig)" : pid.toString());
      HtmlTables.row(
          h,
          "metrics",
          half.rig().metricsUrl() == null
              ? "none: contamination evidence is client-side"
              : half.rig().metricsUrl());
      HtmlTables.row(h, "limiter settings", String.valueOf(half.rig().limiterSettings()));
      Integer capacity = half.rig().queueCapacity();
      HtmlTables.row(
          h, "queue capacity", capacity == null ? "none (no queue)" : capacity.toString());
      for (Map.Entry<String, String> e : half.rig().relayInfo().entrySet()) {
        HtmlTables.row(h, e.getKey(), e.getValue());
      }
      HtmlTables.row(h, "complete", half.complete() ? "yes" : "no: " + half.incompleteReason());
      h.append("</table>\n");
    }
  }

  private static List<HalfRun> halves(ExperimentReport r) {
    List<HalfRun> out = new ArrayList<>();
    if (r.treatment() != null) {
      out.add(r.treatment());
    }
    if (r.control() != null) {
      out.add(r.control());
    }
    return out;
  }

  private static String acceptanceChart(ExperimentReport r) {
    List<Charts.Series> series = new ArrayList<>();
    Map<CellRef, List<CellProblem>> excluded = excluded(r.verdict());
    int colour = 0;
    for (HalfRun half : halves(r)) {
      // Every cell, not only the means: a mean of four repeats that agree and one of four that
      // scatter look alike, and the scatter is what a reader must see before trusting a mean.
      List<Charts.Point> cells = new ArrayList<>();
      List<Charts.Point> twoCommunity = new ArrayList<>();
      for (Cell c : half.cells()) {
        Charts.Point p =
            new Charts.Point(c.offeredPerS(), c.acceptedOverOffered(), cellTip(c, excluded));
        (c.twoCommunity() ? twoCommunity : cells).add(p);
      }
      series.add(new Charts.Series(half.arm() + " cells", Charts.Draw.POINTS, colour, cells));
      if (!twoCommunity.isEmpty()) {
        series.add(
            new Charts.Series(
                half.arm() + " two-community cells (report-only)",
                Charts.Draw.POINTS,
                colour + 4,
                twoCommunity));
      }
      // The means and intervals are the verdict's own, not recomputed from the cells: the line
      // shows exactly what decided, excluded cells already left out.
      Function<RateRow, ArmStats> pick =
          half.arm().equals(r.identity().treatmentArm()) ? RateRow::treatment : RateRow::control;
      series.add(meanSeries(r, half.arm(), pick, colour));
      colour++;
    }
    return Charts.chart(
        new Charts.Chart(
            "Accepted/offered per arm: every cell, and the mean the verdict used",
            "offered rate (events/s)",
            Charts.Axis.LINEAR,
            "accepted / offered",
            Charts.Axis.LINEAR,
            series));
  }

  /** Each excluded cell's reasons, to say on its point why the verdict did not use it. */
  private static Map<CellRef, List<CellProblem>> excluded(VerdictReport v) {
    Map<CellRef, List<CellProblem>> m = new HashMap<>();
    for (ExcludedCell e : v.excluded()) {
      m.put(e.cell(), e.reasons());
    }
    return m;
  }

  /** What hovering a cell shows: which cell it is, its figures, and whether it was used. */
  private static List<Charts.Tip> cellTip(Cell c, Map<CellRef, List<CellProblem>> excluded) {
    List<Charts.Tip> t = new ArrayList<>();
    t.add(new Charts.Tip("arm", c.arm()));
    t.add(
        new Charts.Tip(
            "offered",
            HtmlTables.f(c.offeredPerS(), 0) + "/s" + (c.twoCommunity() ? " (2c)" : "")));
    t.add(new Charts.Tip("repeat", c.repeat() + " (seq " + c.sequence() + ")"));
    t.add(new Charts.Tip("accepted/offered", HtmlTables.f(c.acceptedOverOffered(), 4)));
    t.add(new Charts.Tip("accepted of attempted", c.accepted() + " of " + c.attempted()));
    t.add(new Charts.Tip("scheduled p99", ms(c.scheduled().p99Ms())));
    t.add(
        new Charts.Tip(
            "service p50 / p99", ms(c.service().p50Ms()) + " / " + ms(c.service().p99Ms())));
    if (c.auditBusyFraction() != null) {
      t.add(new Charts.Tip("audit busy", HtmlTables.f(c.auditBusyFraction(), 3)));
    }
    List<CellProblem> reasons = excluded.get(CellRef.of(c));
    String used;
    if (reasons != null) {
      used =
          "no: "
              + String.join(
                  "; ", reasons.stream().map(p -> p.kind() + ": " + p.message()).toList());
    } else if (c.twoCommunity()) {
      used = "no: two-community cells are report-only";
    } else {
      used = "yes";
    }
    t.add(new Charts.Tip("used by the verdict", used));
    return t;
  }

  private static String ms(Double v) {
    return v == null ? "n/a" : HtmlTables.f(v, 2) + " ms";
  }

  private static Charts.Series meanSeries(
      ExperimentReport r, String arm, Function<RateRow, ArmStats> pick, int colour) {
    List<Charts.Point> pts = new ArrayList<>();
    for (RateRow row : r.verdict().rates()) {
      ArmStats a = pick.apply(row);
      if (a == null || a.mean() == null) {
        continue;
      }
      List<Charts.Tip> tip = new ArrayList<>();
      tip.add(new Charts.Tip("arm", arm));
      tip.add(new Charts.Tip("offered", HtmlTables.f(row.offeredPerS(), 0) + "/s"));
      tip.add(new Charts.Tip("mean accepted/offered", HtmlTables.f(a.mean(), 4)));
      // One evidence cell has no interval: said, never a made-up one.
      tip.add(
          new Charts.Tip(
              "interval",
              a.lower() == null
                  ? "none (one cell)"
                  : "[" + HtmlTables.f(a.lower(), 4) + ", " + HtmlTables.f(a.upper(), 4) + "]"));
      tip.add(new Charts.Tip("cells used", Integer.toString(a.n())));
      pts.add(new Charts.Point(row.offeredPerS(), a.mean(), tip));
    }
    return new Charts.Series(arm + " mean", Charts.Draw.LINE_AND_POINTS, colour, pts);
  }

  /** The percentiles drawn; only those a histogram's count can resolve are kept. */
  static final double[] PERCENTILES = {
    0, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999
  };

  /**
   * HdrHistogram's percentile-distribution plot, one line per arm and rate, from the merged
   * histograms of that rate's single-community cells: the tail's shape, which p50 and p99 alone do
   * not show (a knee moves the far tail first).
   */
  private static String percentileChart(
      ExperimentReport r, String what, Function<Cell, LatencySummary> pick) {
    List<Charts.Series> series = new ArrayList<>();
    int colour = 0;
    for (HalfRun half : halves(r)) {
      for (Map.Entry<Double, List<Cell>> e : byRate(half).entrySet()) {
        LatencySummary merged = LatencySummary.merge(e.getValue().stream().map(pick).toList());
        if (merged.count() == 0) {
          continue;
        }
        String rate = HtmlTables.f(e.getKey(), 0) + "/s";
        List<Charts.Point> pts = new ArrayList<>();
        double lastX = 0;
        for (double p : PERCENTILES) {
          double x = 1 / (1 - p / 100);
          if (x > merged.count()) {
            break;
          }
          double valueMs = merged.histogram().getValueAtPercentile(p) / 1000.0;
          if (valueMs > 0) {
            pts.add(
                new Charts.Point(
                    x, valueMs, percentileTip(half, rate, e.getValue(), p + "%", valueMs)));
            lastX = x;
          }
        }
        double maxMs = merged.histogram().getMaxValue() / 1000.0;
        if (merged.count() > lastX && maxMs > 0) {
          // The maximum sits where the count runs out, as in HdrHistogram's own plot.
          pts.add(
              new Charts.Point(
                  merged.count(), maxMs, percentileTip(half, rate, e.getValue(), "max", maxMs)));
        }
        series.add(
            new Charts.Series(half.arm() + " " + rate, Charts.Draw.LINE_AND_POINTS, colour++, pts));
      }
    }
    if (series.isEmpty()) {
      return "<p>No " + what + " latencies were recorded.</p>\n";
    }
    return Charts.chart(
        new Charts.Chart(
            capitalized(what)
                + " latency by percentile, per arm and rate (all single-community cells of a"
                + " rate merged)",
            "percentile",
            Charts.Axis.PERCENTILE,
            "latency",
            Charts.Axis.LOG_MS,
            series));
  }

  private static List<Charts.Tip> percentileTip(
      HalfRun half, String rate, List<Cell> cells, String percentile, double valueMs) {
    return List.of(
        new Charts.Tip("arm", half.arm()),
        new Charts.Tip("offered", rate),
        new Charts.Tip("percentile", percentile),
        new Charts.Tip("latency", HtmlTables.f(valueMs, 3) + " ms"),
        new Charts.Tip(
            "cells merged",
            cells.size()
                + " (repeats "
                + String.join(", ", cells.stream().map(c -> Integer.toString(c.repeat())).toList())
                + ")"));
  }

  private static String latencyChart(ExperimentReport r) {
    List<Charts.Series> series = new ArrayList<>();
    int colour = 0;
    for (HalfRun half : halves(r)) {
      Map<Double, List<Cell>> byRate = byRate(half);
      // Scheduled beside service: the gap between them is the time events waited to be sent,
      // which a latency timed from the send alone would hide (coordinated omission).
      series.add(latency(half, "scheduled", byRate, Cell::scheduled, 99, colour++));
      series.add(latency(half, "service", byRate, Cell::service, 99, colour++));
      series.add(latency(half, "service", byRate, Cell::service, 50, colour++));
    }
    series.removeIf(x -> x.points().isEmpty());
    if (series.isEmpty()) {
      return "<p>No latencies were recorded.</p>\n";
    }
    return Charts.chart(
        new Charts.Chart(
            "Latency per rate: scheduled vs service (all single-community cells merged)",
            "offered rate (events/s)",
            Charts.Axis.LINEAR,
            "latency",
            Charts.Axis.LOG_MS,
            series));
  }

  private static Charts.Series latency(
      HalfRun half,
      String what,
      Map<Double, List<Cell>> byRate,
      Function<Cell, LatencySummary> pick,
      int pct,
      int colour) {
    List<Charts.Point> pts = new ArrayList<>();
    for (Map.Entry<Double, List<Cell>> e : byRate.entrySet()) {
      // Percentiles of the merged histograms, never an average of per-cell percentiles, which
      // is not a percentile of anything.
      LatencySummary merged = LatencySummary.merge(e.getValue().stream().map(pick).toList());
      double ms = merged.count() == 0 ? 0 : merged.histogram().getValueAtPercentile(pct) / 1000.0;
      // A log axis cannot place zero: such a rate is left out of the line, its tooltip-less gap
      // visible, rather than drawn at a made-up floor.
      if (ms > 0) {
        pts.add(
            new Charts.Point(
                e.getKey(),
                ms,
                percentileTip(
                    half,
                    HtmlTables.f(e.getKey(), 0) + "/s",
                    e.getValue(),
                    what + " p" + pct,
                    ms)));
      }
    }
    return new Charts.Series(
        half.arm() + " " + what + " p" + pct, Charts.Draw.LINE_AND_POINTS, colour, pts);
  }

  private static String busyChart(ExperimentReport r) {
    List<Charts.Series> series = new ArrayList<>();
    Map<CellRef, List<CellProblem>> excluded = excluded(r.verdict());
    int colour = 0;
    for (HalfRun half : halves(r)) {
      List<Charts.Point> pts = new ArrayList<>();
      // One point per cell, not a mean per rate: a worker busy in some repeats and idle in others
      // is what decides whether its completion rate can be read as its capacity.
      for (Cell c : half.cells()) {
        if (!c.twoCommunity() && c.auditBusyFraction() != null) {
          pts.add(new Charts.Point(c.offeredPerS(), c.auditBusyFraction(), cellTip(c, excluded)));
        }
      }
      if (!pts.isEmpty()) {
        series.add(
            new Charts.Series(
                half.arm() + " audit busy fraction", Charts.Draw.POINTS, colour, pts));
      }
      colour++;
    }
    if (series.isEmpty()) {
      return "<p>No audit busy-fraction readings.</p>\n";
    }
    return Charts.chart(
        new Charts.Chart(
            "Audit worker busy fraction per cell",
            "offered rate (events/s)",
            Charts.Axis.LINEAR,
            "busy fraction",
            Charts.Axis.LINEAR_FROM_ZERO,
            series));
  }

  /**
   * Single-community cells by rate. Two-community cells are report-only and split the load across
   * hosts, so merging them would mix two different experiments into one curve.
   */
  private static Map<Double, List<Cell>> byRate(HalfRun half) {
    Map<Double, List<Cell>> m = new TreeMap<>();
    for (Cell c : half.cells()) {
      if (!c.twoCommunity()) {
        m.computeIfAbsent(c.offeredPerS(), k -> new ArrayList<>()).add(c);
      }
    }
    return m;
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /**
   * HTML-escapes text for element content and double- or single-quoted attributes. Every string
   * from a file (arm names, relay info, problem messages) goes through it: a report is opened in a
   * browser, and a relay's self-description is not trusted markup.
   */
  static String esc(String s) {
    return HtmlEscapers.htmlEscaper().escape(s);
  }
}
