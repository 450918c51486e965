package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweepCell;
import dev.ceiling.experiment.DelaySweepPoint;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.IdentitiesRoundReport.MeasuredIdentitiesCell;
import dev.ceiling.verdict.ExperimentReport;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The charts' tooltips in a real headless Chromium, driven through Debian's {@code chromedriver}
 * (package {@code chromium-driver}; CEILING_CHROMEDRIVER overrides its path) over the W3C WebDriver
 * protocol on loopback. For each chart the test works out one cell's coordinates and figures from
 * the report itself, asks the chart where those coordinates are on the screen, moves the real mouse
 * pointer there, and reads the tooltip. So a page that draws a point in one place and describes
 * another cell there, or that shows no tooltip, fails; the partners below are such pages.
 */
class ChartHoverBrowserIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir static Path dir;

  static Process driver;
  static String base;
  static String session;

  @BeforeAll
  static void startChromeDriver() throws Exception {
    HtmlReportBrowserIT.findChromium();
    String chromedriver = System.getenv("CEILING_CHROMEDRIVER");
    if (chromedriver == null || chromedriver.isBlank()) {
      chromedriver =
          new File("/usr/bin/chromedriver").canExecute() ? "/usr/bin/chromedriver" : null;
    }
    if (chromedriver == null) {
      System.err.println(
          "\n!!!! ChartHoverBrowserIT SKIPPED: no chromedriver (install Debian's chromium-driver or"
              + " set CEILING_CHROMEDRIVER; .ci/run does)\n");
    }
    Assumptions.assumeTrue(chromedriver != null, "no chromedriver: the hover test is skipped");
    int port = FreePorts.one();
    Path log = dir.resolve("chromedriver.log");
    driver =
        new ProcessBuilder(chromedriver, "--port=" + port, "--allowed-ips=127.0.0.1")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    base = "http://127.0.0.1:" + port;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        if (get("/status").path("value").path("ready").asBoolean()) {
          break;
        }
      } catch (java.io.IOException notYet) {
        // Not listening yet.
      }
      if (System.nanoTime() > deadline || !driver.isAlive()) {
        throw new AssertionError(
            "chromedriver did not become ready; its log:\n" + Files.readString(log));
      }
      Thread.sleep(200);
    }
    ObjectNode caps = JSON.createObjectNode();
    ObjectNode always = caps.putObject("capabilities").putObject("alwaysMatch");
    always.put("browserName", "chrome");
    ObjectNode options = always.putObject("goog:chromeOptions");
    options.put("binary", HtmlReportBrowserIT.chromium);
    ArrayNode args = options.putArray("args");
    HeadlessChromium.FLAGS.forEach(args::add);
    args.add("--window-size=1200,900");
    args.add("--user-data-dir=" + Files.createTempDirectory(dir, "profile"));
    session = call("POST", "/session", caps).path("value").path("sessionId").asText();
    assertThat(session).as("a WebDriver session").isNotBlank();
  }

  @AfterAll
  static void stopChromeDriver() throws Exception {
    if (session != null && !session.isEmpty()) {
      call("DELETE", "/session/" + session, null);
    }
    if (driver != null) {
      driver.destroy();
      driver.waitFor();
    }
  }

  static JsonNode get(String path) throws Exception {
    return call("GET", path, null);
  }

  static JsonNode call(String method, String path, Object body) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(2));
    if (body == null) {
      r.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      r.method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
      r.header("Content-Type", "application/json");
    }
    HttpResponse<String> res = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode node = JSON.readTree(res.body());
    if (res.statusCode() != 200) {
      throw new AssertionError("WebDriver " + method + " " + path + ": " + res.body());
    }
    return node;
  }

  static JsonNode execute(String script, Object... args) throws Exception {
    ObjectNode body = JSON.createObjectNode();
    body.put("script", script);
    body.set("args", JSON.valueToTree(args));
    return call("POST", "/session/" + session + "/execute/sync", body).path("value");
  }

  void open(String html) throws Exception {
    Path page = Files.createTempFile(dir, "page", ".html");
    Files.writeString(page, html, StandardCharsets.UTF_8);
    ObjectNode body = JSON.createObjectNode().put("url", page.toUri().toString());
    call("POST", "/session/" + session + "/url", body);
  }

  /** Moves the mouse pointer to viewport pixel (x, y), as a person's mouse would. */
  static void pointerTo(long x, long y) throws Exception {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode pointer = body.putArray("actions").addObject();
    pointer.put("type", "pointer").put("id", "mouse");
    pointer.putObject("parameters").put("pointerType", "mouse");
    pointer
        .putArray("actions")
        .addObject()
        .put("type", "pointerMove")
        .put("duration", 0)
        .put("origin", "viewport")
        .put("x", x)
        .put("y", y);
    call("POST", "/session/" + session + "/actions", body);
  }

  private static final String FIND =
      "var cap=arguments[0];var c=(window.ceilingCharts||[]).filter(function(x){"
          + "return x.el.querySelector('figcaption').textContent.indexOf(cap)===0;})[0];";

  /**
   * Hovers the point at data coordinates (x, y) of the chart whose caption starts with {@code
   * caption} and returns the tooltip's text, or null when none shows.
   */
  static String hover(String caption, double x, double y) throws Exception {
    awaitChart(caption);
    JsonNode at =
        execute(
            FIND
                + "if(!c)return null;c.el.scrollIntoView({block:'center'});"
                + "var r=c.u.over.getBoundingClientRect();"
                // The canvas pixel under the point: opaque where a marker or line was drawn (the
                // grid is faint), so a point that is described but not drawn is caught too.
                + "var px=c.u.ctx.getImageData(Math.round(c.u.valToPos(arguments[1],'x',true)),"
                + "Math.round(c.u.valToPos(arguments[2],'y',true)),1,1).data;"
                + "return [r.left+c.u.valToPos(arguments[1],'x'),r.top+c.u.valToPos(arguments[2],'y'),"
                + "px[3]];",
            caption,
            x,
            y);
    assertThat(at.isArray()).as("a drawn chart captioned '%s'", caption).isTrue();
    assertThat(at.get(2).asInt())
        .as("the opacity of the canvas at (%s, %s) of '%s': a point drawn there", x, y, caption)
        .isGreaterThanOrEqualTo(128);
    // From the page's corner first, so that the hover is a fresh move onto the point.
    pointerTo(0, 0);
    pointerTo(Math.round(at.get(0).asDouble()), Math.round(at.get(1).asDouble()));
    String tip = null;
    for (int i = 0; i < 20 && tip == null; i++) {
      JsonNode t =
          execute(FIND + "return c.tip.style.display==='block'?c.tip.innerText:null;", caption);
      tip = t.isNull() ? null : t.asText();
      if (tip == null) {
        Thread.sleep(100);
      }
    }
    return tip;
  }

  /**
   * Waits up to 10 s for the chart captioned {@code caption} to be drawn, failing with what the
   * page holds instead. The page's renderer runs as it loads, and WebDriver's navigation returns
   * once the document has loaded; but one CI run beside a busy build found no chart at all on its
   * first hover, with nothing said of why.
   */
  static void awaitChart(String caption) throws Exception {
    for (int i = 0; i < 100; i++) {
      if (execute(FIND + "return !!c;", caption).asBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    JsonNode page =
        execute(
            "return {ready:document.readyState,"
                + "drawn:(window.ceilingCharts||[]).map(function(x){"
                + "return x.el.querySelector('figcaption').textContent;}),"
                + "specs:document.querySelectorAll('script.ceiling-chart').length,"
                + "uplot:typeof uPlot};");
    throw new AssertionError(
        "no drawn chart captioned '" + caption + "' after 10 s; the page: " + page);
  }

  /** Hovering (x, y) must show a tooltip holding every line of {@code lines}. */
  static void assertTooltip(String caption, double x, double y, List<String> lines)
      throws Exception {
    String tip = hover(caption, x, y);
    assertThat(tip).as("a tooltip at (%s, %s) of '%s'", x, y, caption).isNotNull();
    List<String> shown = List.of(tip.split("\n", -1));
    assertThat(shown).as("the tooltip of '%s'", caption).containsAll(lines);
  }

  static String f(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /**
   * The index of the point farthest from its nearest neighbour, axes scaled to their ranges: the
   * cell a hover can find without another cell on the same spot.
   */
  static int loneliest(List<double[]> pts) {
    double[] range = new double[2];
    for (int d = 0; d < 2; d++) {
      final int k = d;
      double lo = pts.stream().mapToDouble(p -> p[k]).min().orElseThrow();
      double hi = pts.stream().mapToDouble(p -> p[k]).max().orElseThrow();
      range[d] = hi > lo ? hi - lo : 1;
    }
    int best = 0;
    double bestGap = -1;
    for (int i = 0; i < pts.size(); i++) {
      double gap = Double.MAX_VALUE;
      for (int j = 0; j < pts.size(); j++) {
        if (i != j) {
          gap =
              Math.min(
                  gap,
                  Math.hypot(
                      (pts.get(i)[0] - pts.get(j)[0]) / range[0],
                      (pts.get(i)[1] - pts.get(j)[1]) / range[1]));
        }
      }
      if (gap > bestGap) {
        bestGap = gap;
        best = i;
      }
    }
    return best;
  }

  static List<Cell> singleCommunity(ExperimentReport r) {
    List<Cell> out = new ArrayList<>();
    for (HalfRun h : List.of(r.treatment(), r.control())) {
      h.cells().stream().filter(c -> !c.twoCommunity()).forEach(out::add);
    }
    return out;
  }

  /** The cell the acceptance chart's check hovers, and the lines its tooltip must hold. */
  static Cell acceptanceTarget(ExperimentReport r) {
    List<Cell> cells = singleCommunity(r);
    return cells.get(
        loneliest(
            cells.stream()
                .map(c -> new double[] {c.offeredPerS(), c.acceptedOverOffered()})
                .toList()));
  }

  static List<String> cellLines(Cell c) {
    return List.of(
        "arm: " + c.arm(),
        "offered: " + f(c.offeredPerS(), 0) + "/s",
        "repeat: " + c.repeat() + " (seq " + c.sequence() + ")",
        "accepted/offered: " + f(c.acceptedOverOffered(), 4));
  }

  /** Every chart of report.html: one cell's point hovered, its figures read from the tooltip. */
  static void assertEveryReportChartShowsTheHoveredCell(ExperimentReport r) throws Exception {
    Cell acc = acceptanceTarget(r);
    assertTooltip(
        "Accepted/offered per arm", acc.offeredPerS(), acc.acceptedOverOffered(), cellLines(acc));

    List<Cell> busy =
        singleCommunity(r).stream().filter(c -> c.auditBusyFraction() != null).toList();
    Cell b =
        busy.get(
            loneliest(
                busy.stream()
                    .map(c -> new double[] {c.offeredPerS(), c.auditBusyFraction()})
                    .toList()));
    List<String> busyLines = new ArrayList<>(cellLines(b));
    busyLines.add("audit busy: " + f(b.auditBusyFraction(), 3));
    assertTooltip("Audit worker busy fraction", b.offeredPerS(), b.auditBusyFraction(), busyLines);

    // The latency charts: the treatment arm's highest rate, merged over its repeats.
    HalfRun t = r.treatment();
    double top =
        t.cells().stream()
            .filter(c -> !c.twoCommunity())
            .mapToDouble(Cell::offeredPerS)
            .max()
            .orElseThrow();
    List<Cell> atTop =
        t.cells().stream().filter(c -> !c.twoCommunity() && c.offeredPerS() == top).toList();
    double p99Ms = merged(atTop, Cell::scheduled).getValueAtPercentile(99) / 1000.0;
    List<String> common = List.of("arm: " + t.arm(), "offered: " + f(top, 0) + "/s");
    List<String> perRate = new ArrayList<>(common);
    perRate.add("percentile: scheduled p99");
    perRate.add("latency: " + f(p99Ms, 3) + " ms");
    assertTooltip("Latency per rate", top, p99Ms, perRate);
    for (String what : List.of("scheduled", "service")) {
      double ms =
          merged(atTop, what.equals("scheduled") ? Cell::scheduled : Cell::service)
                  .getValueAtPercentile(99.9)
              / 1000.0;
      List<String> lines = new ArrayList<>(common);
      lines.add("percentile: 99.9%");
      lines.add("latency: " + f(ms, 3) + " ms");
      String caption = Character.toUpperCase(what.charAt(0)) + what.substring(1) + " latency by";
      assertTooltip(caption, 1 / (1 - 0.999), ms, lines);
    }
  }

  static org.HdrHistogram.Histogram merged(List<Cell> cells, Function<Cell, LatencySummary> pick) {
    return LatencySummary.merge(cells.stream().map(pick).toList()).histogram();
  }

  @Test
  void everyReportChartShowsTheHoveredCellsFigures() throws Exception {
    ExperimentReport r = MeasuredReport.report();
    open(HtmlReport.render(r));
    assertEveryReportChartShowsTheHoveredCell(r);
    // The last tooltip as a reader sees it, kept in target/ for a person to look at.
    {
      String png = get("/session/" + session + "/screenshot").path("value").asText();
      Path out = Path.of("target", "chart-hover.png").toAbsolutePath();
      Files.createDirectories(out.getParent());
      Files.write(out, java.util.Base64.getDecoder().decode(png));
    }
  }

  @Test
  void aPageWhoseTooltipDescribesAnotherCellFails() throws Exception {
    // Partner: the hovered cell's repeat swapped with the farthest cell's in the page's data, so
    // the
    // point is drawn where it was and its tooltip names another cell.
    ExperimentReport r = MeasuredReport.report();
    Cell target = acceptanceTarget(r);
    Cell other =
        singleCommunity(r).stream()
            .max(
                java.util.Comparator.comparingDouble(
                    c ->
                        Math.abs(c.acceptedOverOffered() - target.acceptedOverOffered())
                            + Math.abs(c.offeredPerS() - target.offeredPerS()) / 1000))
            .orElseThrow();
    String a = "\"value\":\"" + target.repeat() + " (seq " + target.sequence() + ")\"";
    String b = "\"value\":\"" + other.repeat() + " (seq " + other.sequence() + ")\"";
    assertThat(a).isNotEqualTo(b);
    String html = HtmlReport.render(r);
    assertThat(html).contains(a, b);
    open(html.replace(a, "SWAP").replace(b, a).replace("SWAP", b));
    assertThatThrownBy(
            () ->
                assertTooltip(
                    "Accepted/offered per arm",
                    target.offeredPerS(),
                    target.acceptedOverOffered(),
                    cellLines(target)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("repeat: " + other.repeat() + " (seq " + other.sequence() + ")");
  }

  @Test
  void aPageWhosePointsHaveNoTooltipFails() throws Exception {
    // Partner: the same page with the tooltip never attached: every hover must fail.
    ExperimentReport r = MeasuredReport.report();
    String html = HtmlReport.render(r);
    String hook = "u.hooks.setCursor=[tipFor(u,spec,tip)];";
    assertThat(html).contains(hook);
    open(html.replace(hook, ""));
    assertThatThrownBy(() -> assertEveryReportChartShowsTheHoveredCell(r))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("a tooltip at");
  }

  @Test
  void aPageThatDescribesPointsItDoesNotDrawFails() throws Exception {
    // Partner: the cells' markers drawn as nothing, their tooltips intact.
    ExperimentReport r = MeasuredReport.report();
    String html = HtmlReport.render(r);
    String markers = "o.paths=uPlot.paths.points();";
    assertThat(html).contains(markers);
    open(html.replace(markers, "o.paths=function(){return null;};"));
    // The busy chart: cells only, no line of means through them that would still be drawn.
    Cell b =
        singleCommunity(r).stream()
            .filter(c -> c.auditBusyFraction() != null)
            .findFirst()
            .orElseThrow();
    assertThatThrownBy(
            () ->
                assertTooltip(
                    "Audit worker busy fraction",
                    b.offeredPerS(),
                    b.auditBusyFraction(),
                    cellLines(b)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("a point drawn there");
  }

  @Test
  void theDelaySweepsPointsAndFittedLineShowTheirFigures() throws Exception {
    DelaySweepReport r = DelaySweepHtmlTest.fixture("three-delays.json");
    open(DelaySweepHtml.render(r));
    String caption = "Worker ms per event";
    List<DelaySweepCell> used =
        r.cells().stream()
            .filter(c -> c.ceilingUsed() && c.cell().auditCompletedPerS() != null)
            .toList();
    List<double[]> xy = new ArrayList<>();
    for (DelaySweepCell c : used) {
      xy.add(
          new double[] {
            DelaySweepPoint.fitX(r.points(), c.planned().addedDelayMs()),
            1000 / c.cell().auditCompletedPerS()
          });
    }
    int i = loneliest(xy);
    DelaySweepCell c = used.get(i);
    assertTooltip(
        caption,
        xy.get(i)[0],
        xy.get(i)[1],
        List.of(
            "cell: #" + c.planned().sequence(),
            "repeat: " + c.planned().repeat(),
            "ms per event: " + f(xy.get(i)[1], 3),
            "used by the fit: yes"));
    // The fitted line at its left end: k d + c at the smallest realized delay.
    double lo = xy.stream().mapToDouble(p -> p[0]).min().orElseThrow();
    double k = r.fit().roundTripsPerEvent().value();
    double c0 = r.fit().interceptMsPerEvent().value();
    assertTooltip(
        caption,
        lo,
        k * lo + c0,
        List.of("line: " + DelaySweepHtml.FIT_LEGEND, "ms per event: " + f(k * lo + c0, 3)));
  }

  @Test
  void aSweepWithoutAFitShowsWhyEachCellWasNotUsed() throws Exception {
    DelaySweepReport r = DelaySweepHtmlTest.fixture("no-fit.json");
    open(DelaySweepHtml.render(r));
    List<DelaySweepCell> unused =
        r.cells().stream()
            .filter(
                c ->
                    !c.ceilingUsed()
                        && c.cell().auditCompletedPerS() != null
                        && c.cell().auditCompletedPerS() > 0)
            .toList();
    Assumptions.assumeFalse(unused.isEmpty(), "the fixture has no unused cell with a worker rate");
    List<double[]> xy = new ArrayList<>();
    for (DelaySweepCell c : unused) {
      xy.add(
          new double[] {
            DelaySweepPoint.fitX(r.points(), c.planned().addedDelayMs()),
            1000 / c.cell().auditCompletedPerS()
          });
    }
    int i = loneliest(xy);
    String tip = hover("Worker ms per event", xy.get(i)[0], xy.get(i)[1]);
    assertThat(tip).isNotNull().contains("cell: #" + unused.get(i).planned().sequence());
    assertThat(tip).contains("used by the fit: no: ");
  }

  /** The crossover chart's used cells (N, accepted/offered) and the one a hover can find alone. */
  static MeasuredIdentitiesCell crossoverTarget(IdentitiesRoundReport r) {
    List<MeasuredIdentitiesCell> used =
        r.cells().stream().filter(c -> c.excludedBy() == null).toList();
    Assumptions.assumeFalse(used.isEmpty(), "the fixture has no used cell");
    return used.get(
        loneliest(
            used.stream()
                .map(c -> new double[] {Math.log10(c.identities()), c.cell().acceptedOverOffered()})
                .toList()));
  }

  static List<String> crossoverLines(MeasuredIdentitiesCell c) {
    return List.of(
        "cell: #" + c.cell().sequence(),
        "N keys: " + c.identities(),
        "accepted/offered: " + f(c.cell().acceptedOverOffered(), 4),
        "used: yes");
  }

  @Test
  void theDefaultsRoundsCrossoverShowsTheHoveredCellAndThePrediction() throws Exception {
    IdentitiesRoundReport r = DefaultsRoundHtmlTest.fixture();
    open(DefaultsRoundHtml.render(r));
    MeasuredIdentitiesCell c = crossoverTarget(r);
    assertTooltip(
        DefaultsRoundHtml.CROSSOVER,
        c.identities(),
        c.cell().acceptedOverOffered(),
        crossoverLines(c));
    // The predicted crossover, fixed before any cell ran, at its foot (where its dashes begin).
    double n = DefaultsRoundHtml.predictedKeys(r);
    String tip = hover(DefaultsRoundHtml.CROSSOVER, n, 0);
    assertThat(tip).isNotNull().contains("predicted crossover: N = " + HtmlTables.num(n));
  }

  @Test
  void aCrossoverWhoseTooltipDescribesAnotherCellFails() throws Exception {
    // Partner: the hovered cell's number swapped with another cell's in the page's data.
    IdentitiesRoundReport r = DefaultsRoundHtmlTest.fixture();
    MeasuredIdentitiesCell target = crossoverTarget(r);
    MeasuredIdentitiesCell other =
        r.cells().stream()
            .filter(c -> c.cell().sequence() != target.cell().sequence())
            .findFirst()
            .orElseThrow();
    String a = "\"value\":\"#" + target.cell().sequence() + "\"";
    String b = "\"value\":\"#" + other.cell().sequence() + "\"";
    String html = DefaultsRoundHtml.render(r);
    assertThat(html).contains(a, b);
    open(html.replace(a, "SWAP").replace(b, a).replace("SWAP", b));
    assertThatThrownBy(
            () ->
                assertTooltip(
                    DefaultsRoundHtml.CROSSOVER,
                    target.identities(),
                    target.cell().acceptedOverOffered(),
                    crossoverLines(target)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("cell: #" + other.cell().sequence());
  }
}
