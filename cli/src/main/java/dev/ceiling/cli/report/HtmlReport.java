package dev.ceiling.cli.report;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.verdict.ArmStats;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Failure;
import dev.ceiling.verdict.FatalProblem;
import dev.ceiling.verdict.RateRow;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictReport;
import dev.ceiling.verdict.WorkerRate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A self-contained HTML report: inline SVG charts (JFreeChart via JFreeSVG), tables, and the run's
 * metadata. No script and no network. Figures come from the verdict and the raw cells; latency
 * percentiles per rate are read from the cells' merged histograms.
 */
public final class HtmlReport {
  private HtmlReport() {}

  public static String render(ExperimentReport report) {
    VerdictReport v = report.verdict();
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Ceiling report: ")
        .append(esc(report.identity().profile()))
        .append("</title><style>")
        .append(
            "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
                + "table{border-collapse:collapse;margin:1em 0;font-size:13px}"
                + "td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}"
                + "th{background:#f3f3f3}td.l,th.l{text-align:left}"
                + ".pass{color:#1e7b34;font-weight:bold}.fail{color:#b00020;font-weight:bold}"
                + ".model{background:#fff3cd;padding:.5em}code{font-size:12px}")
        .append("</style></head><body>\n");
    h.append("<h1>Ceiling: does '")
        .append(esc(report.identity().treatmentArm()))
        .append("' limit ingest?</h1>\n");
    if (report.model()) {
      h.append("<p class=\"model\">MODEL OUTPUT: arithmetic for review, never evidence.</p>\n");
    }
    h.append("<p class=\"")
        .append(v.established() ? "pass\">" : "fail\">")
        .append(esc(v.label()))
        .append("</p>\n");
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
    h.append("<p>").append(esc(capitalized(v.controlPhrase()))).append(". ");
    h.append(esc(v.method())).append("</p>\n");

    h.append("<h2>Accepted / offered</h2>\n").append(acceptanceChart(report));
    h.append(rateTable(report));
    h.append("<h2>Latency: scheduled (from the intended slot) vs service (from the send)</h2>\n");
    h.append(latencyChart(report));
    h.append("<h2>Audit worker</h2>\n").append(busyChart(report));
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
      h.append("<p>No worker-rate estimate: no evidence cell was steady and busy.</p>\n");
    }
    if (v.knee() != null) {
      h.append("<p>Knee (report-only, nothing gates on it): ")
          .append(esc(v.knee().note()))
          .append("</p>\n");
    }
    h.append("<h2>Excluded cells</h2>\n").append(excludedTable(v));
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
    h.append("<h2>Cells</h2>\n").append(cellTable(report));
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
      row(h, "relay pid", pid == null ? "none (attached: not started by the rig)" : pid.toString());
      row(
          h,
          "metrics",
          half.rig().metricsUrl() == null
              ? "none: contamination evidence is client-side"
              : half.rig().metricsUrl());
      row(h, "limiter settings", String.valueOf(half.rig().limiterSettings()));
      Integer capacity = half.rig().queueCapacity();
      row(h, "queue capacity", capacity == null ? "none (no queue)" : capacity.toString());
      for (Map.Entry<String, String> e : half.rig().relayInfo().entrySet()) {
        row(h, e.getKey(), e.getValue());
      }
      row(h, "complete", half.complete() ? "yes" : "no: " + half.incompleteReason());
      h.append("</table>\n");
    }
    h.append("</body></html>\n");
    return h.toString();
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
    series.add(armSeries(r, r.identity().treatmentArm(), RateRow::treatment));
    series.add(armSeries(r, r.identity().controlArm(), RateRow::control));
    return Charts.intervals(
        "accepted/offered per arm (mean and interval)",
        "offered rate (events/s)",
        "accepted / offered",
        series);
  }

  private static Charts.Series armSeries(
      ExperimentReport r, String name, Function<RateRow, ArmStats> pick) {
    List<Charts.Point> pts = new ArrayList<>();
    for (RateRow row : r.verdict().rates()) {
      ArmStats a = pick.apply(row);
      if (a == null || a.mean() == null) {
        continue;
      }
      double lo = a.lower() == null ? a.mean() : a.lower();
      double hi = a.upper() == null ? a.mean() : a.upper();
      pts.add(new Charts.Point(row.offeredPerS(), a.mean(), lo, hi));
    }
    return new Charts.Series(name, pts);
  }

  private static String latencyChart(ExperimentReport r) {
    List<Charts.Series> series = new ArrayList<>();
    for (HalfRun half : halves(r)) {
      Map<Double, List<Cell>> byRate = byRate(half);
      series.add(latency(half.arm() + " scheduled p99", byRate, Cell::scheduled, 99));
      series.add(latency(half.arm() + " service p99", byRate, Cell::service, 99));
      series.add(latency(half.arm() + " service p50", byRate, Cell::service, 50));
    }
    return Charts.lines(
        "latency per rate: scheduled vs service (all single-community cells merged)",
        "offered rate (events/s)",
        "milliseconds (log scale)",
        series,
        true);
  }

  private static Charts.Series latency(
      String name,
      Map<Double, List<Cell>> byRate,
      Function<Cell, LatencySummary> pick,
      double pct) {
    List<Charts.Point> pts = new ArrayList<>();
    for (Map.Entry<Double, List<Cell>> e : byRate.entrySet()) {
      LatencySummary merged = LatencySummary.merge(e.getValue().stream().map(pick).toList());
      if (merged.count() > 0) {
        double ms = merged.histogram().getValueAtPercentile(pct) / 1000.0;
        pts.add(new Charts.Point(e.getKey(), ms, ms, ms));
      }
    }
    return new Charts.Series(name, pts);
  }

  private static String busyChart(ExperimentReport r) {
    List<Charts.Series> series = new ArrayList<>();
    for (HalfRun half : halves(r)) {
      List<Charts.Point> pts = new ArrayList<>();
      for (Cell c : half.cells()) {
        if (!c.twoCommunity() && c.auditBusyFraction() != null) {
          pts.add(
              new Charts.Point(
                  c.offeredPerS(),
                  c.auditBusyFraction(),
                  c.auditBusyFraction(),
                  c.auditBusyFraction()));
        }
      }
      if (!pts.isEmpty()) {
        series.add(new Charts.Series(half.arm() + " audit busy fraction", pts));
      }
    }
    if (series.isEmpty()) {
      return "<p>No audit busy-fraction readings.</p>\n";
    }
    return Charts.lines(
        "audit worker busy fraction per cell", "offered rate (events/s)", "busy fraction", series);
  }

  private static Map<Double, List<Cell>> byRate(HalfRun half) {
    Map<Double, List<Cell>> m = new TreeMap<>();
    for (Cell c : half.cells()) {
      if (!c.twoCommunity()) {
        m.computeIfAbsent(c.offeredPerS(), k -> new ArrayList<>()).add(c);
      }
    }
    return m;
  }

  private static String rateTable(ExperimentReport r) {
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
            .append(
                d.pAdjusted() == null ? (d.degenerate() ? "degenerate" : "-") : f(d.pAdjusted(), 4))
            .append("</td>");
      }
      t.append("<td class=\"l\">").append(row.separated() ? "yes" : "no").append("</td></tr>\n");
    }
    return t.append("</table>\n").toString();
  }

  private static void stats(StringBuilder t, ArmStats a) {
    if (a == null || a.mean() == null) {
      t.append("<td>-</td><td>-</td>");
      return;
    }
    t.append("<td>").append(f(a.mean(), 4)).append(" (n=").append(a.n()).append(")</td><td>");
    t.append(a.lower() == null ? "-" : "[" + f(a.lower(), 4) + ", " + f(a.upper(), 4) + "]");
    t.append("</td>");
  }

  private static String excludedTable(VerdictReport v) {
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

  private static String cellTable(ExperimentReport r) {
    StringBuilder t =
        new StringBuilder(
            "<table><tr><th class=\"l\">arm</th><th>offered/s</th><th>rep</th><th>acc/off</th>"
                + "<th>completed/s</th><th>outstanding Δ</th><th>busy</th><th>service p50 ms</th>"
                + "<th>scheduled p99 ms</th><th>send lag p99 ms</th><th>drain s</th>"
                + "<th>load/CPU before→after</th></tr>\n");
    for (HalfRun half : halves(r)) {
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

  private static void row(StringBuilder h, String k, String v) {
    h.append("<tr><th class=\"l\">")
        .append(esc(k))
        .append("</th><td class=\"l\">")
        .append(esc(v))
        .append("</td></tr>");
  }

  /** A latency percentile: "n/a" for an empty distribution, which has none. */
  private static String percentile(Double v, int decimals) {
    return v == null ? "n/a" : f(v, decimals);
  }

  private static String opt(Double v, int decimals) {
    return v == null ? "-" : f(v, decimals);
  }

  private static String f(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(ch);
      }
    }
    return b.toString();
  }
}
