package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The charts' data and library as they go into a page, without a browser. */
class ChartsTest {
  static final String HOSTILE = "</script><script>alert(1)</script><!-- & \u2028\u2029";

  static Charts.Chart chart(String name) {
    return new Charts.Chart(
        "t",
        "x",
        Charts.Axis.LINEAR,
        "y",
        Charts.Axis.LOG_MS,
        List.of(
            new Charts.Series(
                name,
                Charts.Draw.POINTS,
                0,
                List.of(new Charts.Point(1, 2, List.of(new Charts.Tip("arm", name)))))));
  }

  @Test
  void dataFromAFileCannotCloseTheScriptElementAndReadsBackTheSame() throws Exception {
    String html = Charts.chart(chart(HOSTILE));
    String json =
        html.substring(
            html.indexOf("class=\"ceiling-chart\">") + "class=\"ceiling-chart\">".length(),
            html.indexOf("</script>"));
    assertThat(json).doesNotContain("<", ">", "&", "\u2028", "\u2029");
    assertThat(Json.mapper().readTree(json).at("/series/0/name").asText()).isEqualTo(HOSTILE);
    assertThat(Json.mapper().readTree(json).at("/series/0/points/0/tip/0/value").asText())
        .isEqualTo(HOSTILE);
  }

  @Test
  void theEscapingIsWhatMakesItSafe() {
    // Partner: the same data written as plain JSON would close the element early.
    assertThat(Json.writeLine(chart(HOSTILE))).contains("</script>");
  }

  @Test
  void theLibraryIsInlinedWithItsLicenceAndFetchesNothing() {
    String lib = Charts.library();
    assertThat(lib)
        .startsWith("<style>")
        .contains("uPlot " + Charts.UPLOT_VERSION)
        .contains("Permission is hereby granted, free of charge")
        .contains("window.ceilingCharts");
    assertThat(HtmlReportTest.externalReferences(lib)).isEmpty();
    // The library's own script, its renderer and its style: three elements, each closed once.
    assertThat(lib.split("</script>", -1)).hasSize(3);
    assertThat(lib.split("</style>", -1)).hasSize(2);
  }

  @Test
  void aPointThatCannotBePlacedIsRefused() {
    assertThatThrownBy(() -> new Charts.Point(Double.NaN, 1, List.of()))
        .hasMessage("a chart point needs finite coordinates, got (NaN, 1.0)");
    assertThatThrownBy(() -> new Charts.Point(1, Double.POSITIVE_INFINITY, List.of()))
        .hasMessage("a chart point needs finite coordinates, got (1.0, Infinity)");
  }
}
