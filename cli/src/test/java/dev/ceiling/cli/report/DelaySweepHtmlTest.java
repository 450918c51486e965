package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.html.HtmlEscapers;
import dev.ceiling.core.json.Json;
import dev.ceiling.experiment.DelaySweepCell;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.verdict.CellProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sensitivity.html} from two real sweeps of the reference relay (recorded as
 * src/test/resources/sensitivity/*.json): one with a fit (three delays, every cell used) and one
 * without (most cells excluded on a loaded machine). The page must lead with the answer, show the
 * verdict, give every cell a row with every excluding problem, and draw the fit only where there is
 * one.
 */
public class DelaySweepHtmlTest {
  static final Path FIXTURES = Path.of("src", "test", "resources", "sensitivity");
  private static final String CHART = "<figure class=\"chart\">";
  private static final Pattern CELL_ROW = Pattern.compile("<tr class=\"cell\">(.*?)</tr>");

  /** What the page for {@code report} leaves out or gets wrong; empty when it is complete. */
  public static List<String> missing(String html, DelaySweepReport report) {
    List<String> out = new ArrayList<>();
    String answer = HtmlEscapers.htmlEscaper().escape(report.answer());
    int answerAt = html.indexOf("<p class=\"answer\">" + answer + "</p>");
    if (answerAt < 0) {
      out.add("the answer");
    } else if (html.indexOf(CHART) >= 0 && html.indexOf(CHART) < answerAt) {
      out.add("the answer before the chart");
    }
    String label =
        report.established()
            ? "<p class=\"pass\">ESTABLISHED</p>"
            : "<p class=\"fail\">NOT ESTABLISHED</p>";
    if (!html.contains(label)) {
      out.add("the label " + label);
    }
    if (!html.contains(CHART)) {
      out.add("the chart");
    }
    List<String> rows = new ArrayList<>();
    Matcher m = CELL_ROW.matcher(html);
    while (m.find()) {
      rows.add(m.group(1));
    }
    if (rows.size() != report.cells().size()) {
      out.add(rows.size() + " cell rows for " + report.cells().size() + " cells");
      return out;
    }
    for (int i = 0; i < rows.size(); i++) {
      DelaySweepCell c = report.cells().get(i);
      String row = rows.get(i);
      if (!row.startsWith("<td>" + c.planned().sequence() + "</td>")
          || !row.contains("<td>" + c.use() + "</td>")) {
        out.add("cell " + c.planned().sequence() + "'s sequence or use");
      }
      for (CellProblem p : c.problems()) {
        if (p.excludesEvidence()
            && !row.contains(HtmlEscapers.htmlEscaper().escape(p.kind() + ": " + p.message()))) {
          out.add("cell " + c.planned().sequence() + "'s problem " + p.kind());
        }
      }
    }
    boolean drawsFit = html.contains(DelaySweepHtml.FIT_LEGEND);
    if (drawsFit != (report.fit() != null)) {
      out.add(report.fit() != null ? "the fitted line" : "no fitted line without a fit");
    }
    return out;
  }

  static DelaySweepReport fixture(String name) throws Exception {
    return Json.read(FIXTURES.resolve(name), DelaySweepReport.class);
  }

  @Test
  void aSweepWithAFitLeadsWithTheAnswerAndDrawsTheLine() throws Exception {
    DelaySweepReport r = fixture("three-delays.json");
    assertThat(r.fit()).isNotNull();
    String html = DelaySweepHtml.render(r);
    assertThat(missing(html, r)).isEmpty();
    assertThat(html).contains(DelaySweepHtml.CANNOT_SAY, "<details><summary>Plan and fit");
  }

  @Test
  void aSweepWithoutAFitShowsEveryExcludedCellWithItsReasons() throws Exception {
    DelaySweepReport r = fixture("no-fit.json");
    assertThat(r.fit()).isNull();
    assertThat(r.cells()).anySatisfy(c -> assertThat(c.problems()).isNotEmpty());
    String html = DelaySweepHtml.render(r);
    assertThat(missing(html, r)).isEmpty();
    assertThat(html).contains(HtmlEscapers.htmlEscaper().escape(r.fitProblem()));
  }

  /** The partners: pages that drop a cell, a reason, the answer or the line are caught. */
  /**
   * A resumed sweep's page names its sessions, each with its relay and the cells it ran, so a point
   * whose cells span two relays shows it; a sweep of one session (the fixtures') has no such table.
   */
  @Test
  void aResumedSweepListsItsSessionsAndASingleSessionHasNoTable(@TempDir Path dir)
      throws Exception {
    ObjectNode root =
        (ObjectNode) Json.mapper().readTree(FIXTURES.resolve("three-delays.json").toFile());
    ArrayNode sessions = root.putArray("sessions");
    sessions
        .addObject()
        .put("number", 1)
        .put("started_at", "2026-12-02T10:00:00Z")
        .putNull("finished_at")
        .put("rig_id", "rig-first")
        .putArray("cells")
        .add(0)
        .add(1);
    sessions
        .addObject()
        .put("number", 2)
        .put("started_at", "2026-12-02T10:05:00Z")
        .put("finished_at", "2026-12-02T10:06:00Z")
        .put("rig_id", "rig-<second>")
        .putArray("cells")
        .add(2);
    String html = DelaySweepHtml.render(read(root, dir.resolve("two.json")));
    assertThat(html)
        .contains("<h2>Sessions</h2>")
        .contains(
            "<td>1</td><td>rig-first</td><td>2026-12-02T10:00:00Z</td><td>did not finish</td>")
        .contains("<td>rig-&lt;second&gt;</td>")
        .contains("<td>[2]</td>");
    // Partner: one session, no table.
    root.putArray("sessions")
        .addObject()
        .put("number", 1)
        .put("started_at", "2026-12-02T10:00:00Z")
        .putNull("finished_at")
        .put("rig_id", "r")
        .putArray("cells");
    assertThat(DelaySweepHtml.render(read(root, dir.resolve("one.json"))))
        .doesNotContain("<h2>Sessions</h2>");
  }

  /** The report as a reader gets it from a file: through {@code Json.read}, as the command does. */
  private static DelaySweepReport read(ObjectNode root, Path file) throws Exception {
    Json.mapper().writeValue(file.toFile(), root);
    return Json.read(file, DelaySweepReport.class);
  }

  @Test
  void pagesMissingACellAReasonTheAnswerOrTheLineAreCaught() throws Exception {
    DelaySweepReport withFit = fixture("three-delays.json");
    String html = DelaySweepHtml.render(withFit);
    assertThat(missing(html.replaceFirst("<tr class=\"cell\">.*?</tr>\n", ""), withFit))
        .anySatisfy(s -> assertThat(s).contains("cell rows"));
    assertThat(missing(html.replace(DelaySweepHtml.FIT_LEGEND, "fit"), withFit))
        .contains("the fitted line");
    assertThat(
            missing(
                html.replace(HtmlEscapers.htmlEscaper().escape(withFit.answer()), "a pass"),
                withFit))
        .contains("the answer");
    DelaySweepReport noFit = fixture("no-fit.json");
    DelaySweepCell excluded =
        noFit.cells().stream()
            .filter(c -> c.problems().stream().anyMatch(CellProblem::excludesEvidence))
            .findFirst()
            .orElseThrow();
    CellProblem reason =
        excluded.problems().stream().filter(CellProblem::excludesEvidence).findFirst().get();
    String noFitHtml = DelaySweepHtml.render(noFit);
    String text = HtmlEscapers.htmlEscaper().escape(reason.kind() + ": " + reason.message());
    assertThat(missing(noFitHtml.replace(text, "excluded"), noFit))
        .contains("cell " + excluded.planned().sequence() + "'s problem " + reason.kind());
  }
}
