package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.experiment.LinkSweepsReport;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.verdict.Estimate;
import dev.ceiling.verdict.Tost;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code links.html} for a sweep of two links, the two-link test relay's shape: one link whose line
 * holds and matches its declared count and wire count, one whose line does not hold. The page leads
 * with the answer, gives each swept link a row that links to its own page, never shows a k whose
 * line does not hold as if it did, and says when links are missing.
 */
class LinksHtmlTest {
  private static final LinkSweepsReport.Plan PLAN =
      new LinkSweepsReport.Plan(
          List.of("a", "b<c"), List.of(0.0, 2.0, 4.0), 2, 2.0, 220.0, 7, 0.5, Map.of("a", 2.0));

  private static LinkSweepsReport.Row row(String link, double k, boolean holds) {
    return new LinkSweepsReport.Row(
        link,
        link,
        holds ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED,
        new Estimate(k, 0.07, 8, k - 0.15, k + 0.15, 0.95),
        holds,
        2.0,
        2.01,
        holds ? 2.0 : null,
        holds ? Tost.Reading.CONSISTENT : null,
        "link '" + link + "'");
  }

  private static LinkSweepsReport report(List<LinkSweepsReport.Row> rows, boolean complete) {
    return new LinkSweepsReport(
        LinkSweepsReport.SCHEMA, "two-link", PLAN, rows, complete, "2 round trips on a & more");
  }

  @Test
  void theAnswerLeadsAndEachLinkHasARowLinkingToItsOwnPage() {
    String html =
        LinksHtml.render(report(List.of(row("a", 2.02, true), row("b<c", 3.4, false)), true));
    int answer = html.indexOf("<p class=\"answer\">2 round trips on a &amp; more</p>");
    assertThat(answer).isPositive().isLessThan(html.indexOf("<table>"));
    assertThat(html)
        .contains("<a href=\"a/sensitivity.html\">a</a></td><td>2.02 [1.87, 2.17]</td>")
        .contains("<td>2.00</td><td>2.01</td><td>2.0</td><td>CONSISTENT</td><td>ESTABLISHED</td>")
        .contains("<a href=\"b&lt;c/sensitivity.html\">b&lt;c</a>")
        .doesNotContain("Incomplete");
    // Partner: only the link whose line does not hold says so.
    assertThat(html).containsOnlyOnce("(the line does not hold)");
    assertThat(html).contains("3.40 [3.25, 3.55] (the line does not hold)");
  }

  @Test
  void aSweepStoppedAfterOneLinkSaysHowManyWereSwept() {
    String html = LinksHtml.render(report(List.of(row("a", 2.02, true)), false));
    assertThat(html).contains("<p class=\"fail\">Incomplete: 1 of 2 links swept.</p>");
    assertThat(html).contains("b&lt;c").doesNotContain("b&lt;c/sensitivity.html");
  }
}
