package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Model;
import dev.ceiling.verdict.ModelConfig;
import dev.ceiling.verdict.VerdictConfig;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  /** Attributes that would make a browser fetch something: the report must have none. */
  private static final Pattern FETCH =
      Pattern.compile("(?i)(src|href|url)\\s*[=(]\\s*[\"']?\\s*(https?:|//)");

  static List<String> externalReferences(String html) {
    Matcher m = FETCH.matcher(html);
    List<String> found = new java.util.ArrayList<>();
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  static ExperimentReport modelReport() {
    return Model.report(
        new ModelConfig(List.of(250.0, 500.0, 750.0, 1000.0), 4, 3, 200, 550, 1),
        VerdictConfig.defaults());
  }

  @Test
  void rendersChartsInlineWithNoNetworkReference() throws Exception {
    assertThat(HtmlReport.render(modelReport())).contains("MODEL OUTPUT").contains("Run metadata");
    String html = HtmlReport.render(MeasuredReport.report());
    // Acceptance, latency per rate, scheduled and service by percentile, busy fraction.
    assertThat(html.split("<script type=\"application/json\" class=\"ceiling-chart\">", -1))
        .hasSize(6);
    assertThat(html).contains("uPlot " + Charts.UPLOT_VERSION).contains("The MIT License");
    assertThat(externalReferences(html)).isEmpty();
  }

  @Test
  void theNoNetworkCheckCatchesAFetch() {
    // Mutant partner: a report that pulled a charting script from a CDN must be caught.
    String mutant =
        HtmlReport.render(modelReport())
            .replace("</head>", "<script src=\"https://cdn.example/chart.js\"></script></head>");
    assertThat(externalReferences(mutant)).hasSize(1);
  }

  /** The answer before the first heading; the method only in the folded section after the cells. */
  static void assertAnswerFirstMethodFolded(String html, ExperimentReport r) {
    int answer = html.indexOf("<p class=\"answer\">" + HtmlReport.esc(Answer.of(r).sentence()));
    assertThat(answer).isPositive().isLessThan(html.indexOf("<h2>"));
    int details = html.indexOf("<details><summary>Method</summary>");
    assertThat(details).isGreaterThan(html.indexOf("<h2>Cells</h2>"));
    assertThat(html.indexOf(HtmlReport.esc(r.verdict().method()))).isGreaterThan(details);
  }

  @Test
  void theAnswerComesFirstAndTheMethodIsFoldedBelowTheResults() {
    ExperimentReport r = modelReport();
    String html = HtmlReport.render(r);
    assertAnswerFirstMethodFolded(html, r);
    assertThat(html).contains("<h2>What this run could not see</h2>");
    // Partner: the old layout, the method paragraph above the charts, fails the same check.
    String methodFirst =
        html.replace("<h1>", "<p>" + HtmlReport.esc(r.verdict().method()) + "</p><h1>");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> assertAnswerFirstMethodFolded(methodFirst, r))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void theSummaryLeadsWithTheAnswer() {
    ExperimentReport r = modelReport();
    assertThat(Summary.text(r)).startsWith(Answer.of(r).text());
    assertThat(Answer.of(r).sentence()).containsIgnoringCase("model output, never evidence");
  }

  @Test
  void summaryNamesTheVerdictAndEveryFailure() {
    ExperimentReport r = modelReport();
    String text = Summary.text(r);
    assertThat(text).contains("MODEL OUTPUT: never evidence").contains("verdict: NOT ESTABLISHED");
    for (String line : r.verdict().failureLines()) {
      assertThat(text).contains(line);
    }
  }

  @Test
  void escapesMarkup() {
    assertThat(HtmlReport.esc("<a href=\"x\">&'</a>"))
        .isEqualTo("&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  }
}
