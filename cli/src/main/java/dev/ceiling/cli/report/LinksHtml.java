package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlReport.esc;
import static dev.ceiling.cli.report.HtmlTables.f;
import static dev.ceiling.cli.report.HtmlTables.opt;
import static dev.ceiling.cli.report.HtmlTables.row;
import static dev.ceiling.cli.report.HtmlTables.tr;

import dev.ceiling.experiment.LinkSweepsReport;
import dev.ceiling.verdict.Estimate;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code links.html}: a sweep per link's answer first, then the table an operator reads it for,
 * round trips per event on each link by the timing fit next to the proxy's wire count and the
 * declared count, each link linking to its own sweep's page, then the plan every link shared, fixed
 * before the first cell. Self-contained like {@link HtmlReport}.
 */
public final class LinksHtml {
  /** The page's file name, beside {@code links.json}. */
  public static final String FILE = "links.html";

  private LinksHtml() {}

  public static String render(LinkSweepsReport r) {
    StringBuilder h = HtmlReport.page("Ceiling: round trips per link: " + r.profile());
    h.append("<h1>Ceiling: round trips per event on each link</h1>\n")
        .append("<p class=\"answer\">")
        .append(esc(r.answer()))
        .append("</p>\n");
    if (!r.complete()) {
      h.append("<p class=\"fail\">Incomplete: ")
          .append(r.links().size())
          .append(" of ")
          .append(r.plan().links().size())
          .append(" links swept.</p>\n");
    }
    h.append("<p>What a pass cannot say: ").append(esc(DelaySweepHtml.CANNOT_SAY)).append("</p>\n");
    h.append("<h2>Links</h2>\n").append(linkTable(r));
    h.append("<h2>Plan</h2>\n").append(planTable(r.plan()));
    return h.append("</body></html>\n").toString();
  }

  private static String linkTable(LinkSweepsReport r) {
    boolean slopes = r.links().stream().anyMatch(row -> row.ceilingReading() != null);
    StringBuilder t = new StringBuilder("<table>\n<tr><th>link</th>");
    if (slopes) {
      t.append("<th>round trips on the OK path per event (latency slope, interval)</th>")
          .append("<th>wire turns per OK-true answer, latency cells</th>")
          .append("<th>bytes out per OK-true answer</th><th>bytes back per OK-true answer</th>")
          .append("<th>ceiling slope against 0</th>");
    }
    t.append("<th>round trips per event (ceiling fit, interval)</th>")
        .append("<th>wire turns per entry, cells used</th><th>wire turns, all cells</th>")
        .append("<th>declared</th><th>reading</th><th>outcome</th></tr>\n");
    for (LinkSweepsReport.Row row : r.links()) {
      List<Object> cells = new ArrayList<>();
      cells.add(
          "<a href=\""
              + esc(row.dir())
              + '/'
              + DelaySweepHtml.FILE
              + "\">"
              + esc(row.link())
              + "</a>");
      if (slopes) {
        cells.addAll(
            List.of(
                esc(k(row.latencyRoundTrips(), row.latencyLineHolds())),
                opt(row.latencyWireTurnsPerOkTrue(), 2),
                opt(row.bytesToTargetPerOkTrue(), 0),
                opt(row.bytesToRelayPerOkTrue(), 0),
                esc(row.ceilingReading() == null ? "n/a" : row.ceilingReading())));
      }
      cells.addAll(
          List.of(
              esc(k(row.roundTripsPerEvent(), row.lineHolds())),
              opt(row.wireTurnsPerEvent(), 2),
              opt(row.wireTurnsPerEventAllCells(), 2),
              opt(row.expectedRoundTrips(), 1),
              row.reading() == null ? "-" : row.reading().name(),
              row.outcome().name()));
      tr(t, cells.toArray());
    }
    return t.append("</table>\n").toString();
  }

  /** k with its interval, and "no line" when the lack-of-fit test rejected the line. */
  private static String k(Estimate k, Boolean lineHolds) {
    if (k == null) {
      return "n/a";
    }
    return f(k.value(), 2)
        + " ["
        + f(k.lower(), 2)
        + ", "
        + f(k.upper(), 2)
        + "]"
        + (Boolean.TRUE.equals(lineHolds) ? "" : " (the line does not hold)");
  }

  private static String planTable(LinkSweepsReport.Plan p) {
    StringBuilder t = new StringBuilder("<table>\n");
    row(
        t,
        "links, in order (each swept with the others at zero added delay)",
        p.links().toString());
    row(t, "delays, ms (fixed before the first cell)", p.delaysMs().toString());
    row(t, "repeats per delay", Integer.toString(p.repeats()));
    row(t, "window per cell, s", HtmlTables.num(p.durationS()));
    row(
        t,
        "offered rate, events/s",
        p.ratePerS() == null
            ? "each link's own: per point, from the line through its cells before (its page"
                + " gives the rule)"
            : f(p.ratePerS(), 1));
    row(t, "seed of the cell order", Long.toString(p.seed()));
    row(
        t,
        "declared round trips",
        p.expectedRoundTrips().isEmpty()
            ? "none"
            : p.expectedRoundTrips() + " +- " + HtmlTables.num(p.margin()));
    return t.append("</table>\n").toString();
  }
}
