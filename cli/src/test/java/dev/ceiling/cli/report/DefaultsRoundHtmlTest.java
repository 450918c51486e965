package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.html.HtmlEscapers;
import dev.ceiling.core.json.Json;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.IdentitiesRoundReport.MeasuredIdentitiesCell;
import dev.ceiling.verdict.AdmissionPlan;
import dev.ceiling.verdict.DeclaredBudget;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code identities.html} from a real defaults round on the reference relay at its stock limits
 * (recorded as src/test/resources/identities/reference-defaults.json by {@code ceiling experiment
 * --design identities --profile reference-defaults}, N = 2, 8, 32): the page must lead with the
 * answer, draw the crossover chart with every cell and the predicted crossover, and give every cell
 * a row saying whether its row used it and, if not, why.
 */
class DefaultsRoundHtmlTest {
  static final Path FIXTURES = Path.of("src", "test", "resources", "identities");
  private static final Pattern CELL_ROW = Pattern.compile("<tr class=\"cell\">(.*?)</tr>");

  static IdentitiesRoundReport fixture() throws Exception {
    return Json.read(FIXTURES.resolve("reference-defaults.json"), IdentitiesRoundReport.class);
  }

  /** What the page for {@code r} leaves out or gets wrong; empty when it is complete. */
  static List<String> missing(String html, IdentitiesRoundReport r) {
    List<String> out = new ArrayList<>();
    String answer = HtmlEscapers.htmlEscaper().escape(r.verdict().words());
    int answerAt = html.indexOf("<p class=\"answer\">" + answer + "</p>");
    int chartAt = html.indexOf("<figure class=\"chart\">");
    if (answerAt < 0) {
      out.add("the answer");
    }
    if (chartAt < 0) {
      out.add("the chart");
    } else if (answerAt > chartAt) {
      out.add("the answer before the chart");
    }
    if (!html.contains("predicted crossover")) {
      out.add("the predicted crossover");
    }
    List<String> rows = new ArrayList<>();
    Matcher m = CELL_ROW.matcher(html);
    while (m.find()) {
      rows.add(m.group(1));
    }
    if (rows.size() != r.cells().size()) {
      out.add(rows.size() + " cell rows for " + r.cells().size() + " cells");
      return out;
    }
    for (int i = 0; i < rows.size(); i++) {
      MeasuredIdentitiesCell c = r.cells().get(i);
      String row = rows.get(i);
      if (!row.startsWith("<td>" + c.cell().sequence() + "</td><td>" + c.identities() + "</td>")) {
        out.add("cell " + c.cell().sequence() + "'s number and N");
      }
      String use =
          c.excludedBy() == null
              ? "<td>yes</td>"
              : "<td>no</td><td class=\"l\">"
                  + HtmlEscapers.htmlEscaper().escape(c.excludedBy().kind().name());
      if (!row.contains(use)) {
        out.add("cell " + c.cell().sequence() + "'s use and why not");
      }
    }
    return out;
  }

  @Test
  void thePageLeadsWithTheAnswerAndShowsEveryCellAndWhyNot() throws Exception {
    IdentitiesRoundReport r = fixture();
    assertThat(r.cells()).isNotEmpty();
    String html = DefaultsRoundHtml.render(r);
    assertThat(missing(html, r)).isEmpty();
    assertThat(html).contains(DefaultsRoundHtml.CROSSOVER).contains("\"x_axis\":\"LOG\"");
  }

  @Test
  void aPageMissingACellOrItsReasonFails() throws Exception {
    // Partners: the checker above must see a dropped cell row and a cell marked used that its row
    // left out (or the reverse).
    IdentitiesRoundReport r = fixture();
    String html = DefaultsRoundHtml.render(r);
    Matcher m = CELL_ROW.matcher(html);
    assertThat(m.find()).isTrue();
    assertThat(missing(html.replace(m.group(), ""), r))
        .anySatisfy(s -> assertThat(s).contains("cell rows for"));
    MeasuredIdentitiesCell first = r.cells().get(0);
    String flipped =
        first.excludedBy() == null
            ? m.group().replace("<td>yes</td>", "<td>no</td>")
            : m.group().replace("<td>no</td>", "<td>yes</td>");
    assertThat(missing(html.replace(m.group(), flipped), r))
        .contains("cell " + first.cell().sequence() + "'s use and why not");
  }

  /**
   * The fixture's round as if its profile declared {@code budget}, for cells of {@code windowS}.
   */
  static IdentitiesRoundReport declaring(DeclaredBudget budget, double warmupS, double windowS)
      throws Exception {
    IdentitiesRoundReport r = fixture();
    AdmissionPlan a =
        AdmissionPlan.of(
            List.of(budget), warmupS, windowS, r.offeredPerS(), r.predictedCeilingPerS(), null);
    ObjectNode tree = Json.mapper().valueToTree(r);
    tree.set("admission", Json.mapper().valueToTree(a));
    return Json.read(tree.toString(), "declaring.json", IdentitiesRoundReport.class);
  }

  @Test
  void declaredLimitsDrawTheirPredictionAndAPlanThatDoesNotCoverThemSaysSo() throws Exception {
    DeclaredBudget perKey =
        new DeclaredBudget(DeclaredBudget.Scope.SIGNING_KEY, 50, 5, "50 per key per 5 s");
    IdentitiesRoundReport covered = declaring(perKey, 2, 5);
    String html = DefaultsRoundHtml.render(covered);
    assertThat(missing(html, covered)).isEmpty();
    int keys = covered.admission().prediction().keys();
    assertThat(html)
        .contains("N = " + keys + " (the profile&#39;s declared per-key budget)")
        .doesNotContain("<p class=\"fail\">the declared admission limit");
    // Partner: cells of 1 s + 1 s do not cover a 5 s window; the page must say so.
    IdentitiesRoundReport short1 = declaring(perKey, 1, 1);
    assertThat(DefaultsRoundHtml.render(short1))
        .contains("<p class=\"fail\">the declared admission limit &quot;50 per key per 5 s&quot;");
  }
}
