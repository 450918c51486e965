package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html in a real headless Chromium (Debian's {@code chromium}; {@code .ci/run} installs it
 * and sets CEILING_CHROMIUM). A probe script, added to a test copy of the page only, waits for
 * layout and writes what the browser drew into the DOM that {@code --dump-dom} prints: each chart's
 * laid-out size and its data points, the verdict line, and every console error or uncaught
 * exception. Chromium's own console log on stderr is read too.
 */
class HtmlReportBrowserIT {
  static String chromium;

  @TempDir Path dir;

  @BeforeAll
  static void findChromium() {
    String env = System.getenv("CEILING_CHROMIUM");
    if (env != null && !env.isBlank()) {
      chromium = env;
    } else {
      for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
        if (new File(c).canExecute()) {
          chromium = c;
        }
      }
    }
    if (chromium == null) {
      System.err.println(
          "\n!!!! HtmlReportBrowserIT SKIPPED: no Chromium (install Debian's chromium or set"
              + " CEILING_CHROMIUM; .ci/run does)\n");
    }
    Assumptions.assumeTrue(chromium != null, "no Chromium: the browser test is skipped");
  }

  /** Records console errors and exceptions from the first moment, then reports after layout. */
  static final String PROBE =
      "<script>(function(){var errs=[];"
          + "var ce=console.error;console.error=function(){errs.push('console.error: '+"
          + "Array.prototype.join.call(arguments,' '));ce.apply(console,arguments);};"
          + "window.addEventListener('error',function(e){errs.push('exception: '+(e.message||"
          + "(e.target&&e.target.outerHTML)));},true);"
          + "window.addEventListener('load',function(){var out=[];"
          + "document.querySelectorAll('svg').forEach(function(s,i){var b=s.getBoundingClientRect();"
          + "var pts=0;s.querySelectorAll('path,rect,ellipse,circle,line,polyline').forEach("
          + "function(p){var r=p.getBBox();if(r.width>0||r.height>0)pts++;});"
          + "out.push('svg '+i+' '+Math.round(b.width)+'x'+Math.round(b.height)+' shapes '+pts);});"
          + "(window.ceilingCharts||[]).forEach(function(c,i){"
          + "var b=c.u.root.querySelector('canvas').getBoundingClientRect();var pts=0;"
          + "c.u.data.forEach(function(d){if(d)pts+=d[0].length;});"
          + "out.push('chart '+i+' '+Math.round(b.width)+'x'+Math.round(b.height)+' points '+pts);});"
          + "out.push('figures '+document.querySelectorAll('figure.chart').length);"
          + "var vw=window.innerWidth,sw=document.documentElement.scrollWidth;"
          + "out.push('viewport '+vw+' scroll '+sw);if(sw>vw)out.push('overflow page '+sw+' > '+vw);"
          + "document.querySelectorAll('svg, canvas, figure, table, pre, p, h1, h2').forEach(function(e,i){"
          + "var r=e.getBoundingClientRect();if(r.right>vw+1||r.left<-1)out.push('overflow '+"
          + "e.tagName.toLowerCase()+' '+i+' '+Math.round(r.left)+'..'+Math.round(r.right));});"
          + "var v=document.querySelector('p.pass, p.fail');"
          + "out.push('verdict '+(v?v.textContent:'none'));"
          + "errs.forEach(function(e){out.push('error '+e);});"
          + "if(window.parent!==window){window.parent.postMessage(out.join('\\n'),'*');return;}"
          + "var pre=document.createElement('pre');pre.id='ceiling-probe';"
          + "pre.textContent=out.join('\\n');document.body.appendChild(pre);});})();</script>";

  /**
   * Headless Chromium will not make a window narrower than this, so a phone's width is given to the
   * page by an iframe of exactly that width inside a wider window ({@link #phoneHost}).
   */
  static final int MIN_WINDOW_PX = 500;

  /**
   * A page holding {@code page} in an iframe {@code widthPx} wide, which writes what the probe in
   * the iframe posts into its own DOM, where {@code --dump-dom} prints it.
   */
  static String phoneHost(Path page, int widthPx) {
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">"
        + "<iframe src=\""
        + page.toUri()
        + "\" style=\"width:"
        + widthPx
        + "px;height:1000px;border:0\"></iframe><script>window.addEventListener('message',"
        + "function(e){var pre=document.createElement('pre');pre.id='ceiling-probe';"
        + "pre.textContent=e.data;document.body.appendChild(pre);});</script></body></html>";
  }

  /** The URL Chromium opens for {@code page} at {@code widthPx}: the page, or its phone host. */
  Path atWidth(Path page, int widthPx) throws Exception {
    if (widthPx >= MIN_WINDOW_PX) {
      return page;
    }
    Path host = Files.createTempFile(dir, "host", ".html");
    Files.writeString(host, phoneHost(page, widthPx), StandardCharsets.UTF_8);
    return host;
  }

  /**
   * What the probe saw: each SVG's size and shapes, the verdict line, errors, the viewport's and
   * the page's widths, and every chart, table or text block that reached past the viewport.
   */
  record Seen(
      List<String> svgs,
      List<String> charts,
      int figures,
      String verdict,
      List<String> errors,
      String viewport,
      List<String> overflows) {}

  /** The widths the report must be readable at: a desktop window and a phone. */
  static final int DESKTOP_PX = 1400;

  static final int PHONE_PX = 390;

  Seen open(String html) throws Exception {
    return open(html, DESKTOP_PX);
  }

  /** Chromium's arguments shared by the DOM dump and the screenshot. */
  List<String> chromiumArgs(Path profile, int widthPx) {
    List<String> args = new ArrayList<>();
    args.add(chromium);
    args.addAll(HeadlessChromium.FLAGS);
    args.addAll(
        List.of(
            "--window-size=" + Math.max(widthPx, MIN_WINDOW_PX) + ",1000",
            "--user-data-dir=" + profile,
            "--enable-logging=stderr",
            "--log-level=0",
            "--virtual-time-budget=5000"));
    return args;
  }

  /** Runs Chromium with {@code args}, waiting generously; its log is returned. */
  static String runChromium(List<String> args, Path out, Path err) throws Exception {
    Process p =
        new ProcessBuilder(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    // Generous: a loaded 2-core machine starts Chromium slowly.
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "Chromium did not finish in 180 s; its log:\n" + Files.readString(err));
    }
    return Files.readString(err, StandardCharsets.UTF_8) + "\nexit " + p.exitValue();
  }

  Seen open(String html, int widthPx) throws Exception {
    Path page = Files.createTempFile(dir, "page", ".html");
    Files.writeString(page, html.replace("<head>", "<head>" + PROBE), StandardCharsets.UTF_8);
    Path profile = Files.createTempDirectory(dir, "chromium-profile");
    Path out = dir.resolve("dom.html");
    Path err = dir.resolve("chromium.log");
    List<String> args = chromiumArgs(profile, widthPx);
    args.add("--dump-dom");
    args.add(atWidth(page, widthPx).toUri().toString());
    String log = runChromium(args, out, err);
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("(?s)<pre id=\"ceiling-probe\">(.*?)</pre>").matcher(dom);
    assertThat(m.find()).as("the probe ran; log:%n%s", log).isTrue();
    List<String> svgs = new ArrayList<>();
    List<String> charts = new ArrayList<>();
    int figures = -1;
    String verdict = null;
    List<String> errors = new ArrayList<>();
    String viewport = null;
    List<String> overflows = new ArrayList<>();
    for (String line : m.group(1).replace("&gt;", ">").replace("&lt;", "<").split("\n", -1)) {
      if (line.startsWith("svg ")) {
        svgs.add(line);
      } else if (line.startsWith("chart ")) {
        charts.add(line);
      } else if (line.startsWith("figures ")) {
        figures = Integer.parseInt(line.substring("figures ".length()));
      } else if (line.startsWith("verdict ")) {
        verdict = line.substring("verdict ".length());
      } else if (line.startsWith("error ")) {
        errors.add(line.substring("error ".length()));
      } else if (line.startsWith("viewport ")) {
        viewport = line;
      } else if (line.startsWith("overflow ")) {
        overflows.add(line);
      }
    }
    // Chromium's own console log: any error-level console message or uncaught exception.
    for (String line : log.split("\n", -1)) {
      if (line.contains("CONSOLE") && (line.contains("Uncaught") || line.contains("rror"))) {
        errors.add("chromium log: " + line);
      }
    }
    return new Seen(svgs, charts, figures, verdict, errors, viewport, overflows);
  }

  /** A report with every chart: latencies and busy fractions in each cell. */
  static ExperimentReport report() throws Exception {
    return MeasuredReport.report();
  }

  @Test
  void chartsRenderWithDataPointsNoConsoleErrorAndTheVerdictMatchesReportJson() throws Exception {
    ExperimentReport r = report();
    Path json = dir.resolve("report.json");
    Json.write(json, r);
    ExperimentReport fromJson = Json.read(json, ExperimentReport.class);

    // The desktop width: this one page is also the desktop half of the readability test below,
    // which opens only the phone width (one Chromium start fewer; the same page, the same width).
    Seen seen = open(HtmlReport.render(r), DESKTOP_PX);

    assertThat(seen.errors()).isEmpty();
    assertThat(seen.viewport()).startsWith("viewport " + DESKTOP_PX + " ");
    assertThat(seen.overflows()).as(seen.viewport()).isEmpty();
    // Every chart on the page was drawn: as many uPlot charts as figures, none left as bare data.
    assertThat(seen.charts()).hasSize(5).hasSize(seen.figures());
    for (String chart : seen.charts()) {
      // "chart i WxH points N": laid out at a real size, with the data points it was given.
      String[] f = chart.split(" ", -1);
      String[] wh = f[2].split("x", -1);
      assertThat(Integer.parseInt(wh[0])).as(chart).isGreaterThan(100);
      assertThat(Integer.parseInt(wh[1])).as(chart).isGreaterThan(100);
      assertThat(Integer.parseInt(f[4])).as(chart).isGreaterThanOrEqualTo(4);
    }
    assertThat(seen.verdict())
        .isEqualTo(fromJson.verdict().established() ? "ESTABLISHED" : "NOT ESTABLISHED");
  }

  /** A PNG of the page at {@code widthPx}, kept in target/ for a person to look at. */
  Path screenshot(String html, int widthPx) throws Exception {
    Path page = Files.createTempFile(dir, "shot", ".html");
    Files.writeString(page, html, StandardCharsets.UTF_8);
    Path png = Path.of("target", "report-" + widthPx + "px.png").toAbsolutePath();
    Files.createDirectories(png.getParent());
    Files.deleteIfExists(png);
    List<String> args = chromiumArgs(Files.createTempDirectory(dir, "chromium-shot"), widthPx);
    args.add("--screenshot=" + png);
    args.add(atWidth(page, widthPx).toUri().toString());
    String log = runChromium(args, dir.resolve("shot.out"), dir.resolve("shot.log"));
    assertThat(png).as("Chromium wrote the screenshot; log:%n%s", log).exists();
    // A PNG, not an empty or error file: the signature and more than a blank page's bytes.
    byte[] bytes = Files.readAllBytes(png);
    assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    assertThat(bytes.length).as(png.toString()).isGreaterThan(10_000);
    return png;
  }

  @Test
  void readableOnADesktopAndAPhoneWithNothingReachingPastThePage() throws Exception {
    String html = HtmlReport.render(report());
    // The desktop width's viewport and overflow checks are the test above's, on the same page.
    int width = PHONE_PX;
    Seen seen = open(html, width);
    assertThat(seen.viewport()).as("width %d", width).startsWith("viewport " + width + " ");
    assertThat(seen.overflows()).as("width %d: %s", width, seen.viewport()).isEmpty();
    assertThat(seen.errors()).isEmpty();
    // Every chart still drawn at a readable size on the phone, not shrunk to a stamp.
    assertThat(seen.charts()).hasSize(5);
    for (String chart : seen.charts()) {
      int w = Integer.parseInt(chart.split(" ", -1)[2].split("x", -1)[0]);
      assertThat(w).as(chart).isBetween(Math.min(300, width - 40), width);
    }
    for (int shot : new int[] {DESKTOP_PX, PHONE_PX}) {
      screenshot(html, shot);
    }
    // The delay sweep's page too, with its chart and its long problem texts, on the phone.
    Seen sweep = open(DelaySweepHtml.render(DelaySweepHtmlTest.fixture("no-fit.json")), PHONE_PX);
    assertThat(sweep.overflows()).as(sweep.viewport()).isEmpty();
    assertThat(sweep.errors()).isEmpty();
    assertThat(sweep.charts()).hasSize(1);
    // And the defaults round's, with its crossover chart and its per-cell reasons.
    Seen defaults = open(DefaultsRoundHtml.render(DefaultsRoundHtmlTest.fixture()), PHONE_PX);
    assertThat(defaults.overflows()).as(defaults.viewport()).isEmpty();
    assertThat(defaults.errors()).isEmpty();
    assertThat(defaults.charts()).hasSize(1);
  }

  @Test
  void theOverflowCheckCatchesADeliberatelyOverWideTableAndChart() throws Exception {
    // Partner: the same page with a table and a chart wider than a phone must fail the check.
    String html =
        HtmlReport.render(report())
            .replace(
                "</body>",
                "<table style=\"min-width:900px\"><tr><td>wide</td></tr></table>"
                    + "<svg width=\"800\" height=\"50\" style=\"max-width:none\">"
                    + "<rect width=\"800\" height=\"50\"/></svg></body>");
    Seen seen = open(html, PHONE_PX);
    assertThat(seen.overflows())
        .anySatisfy(o -> assertThat(o).startsWith("overflow table"))
        .anySatisfy(o -> assertThat(o).startsWith("overflow svg"))
        .anySatisfy(o -> assertThat(o).startsWith("overflow page"));
  }

  @Test
  void theProbeCatchesAConsoleErrorAnExceptionAndAPageWithoutCharts() throws Exception {
    // Mutant partner: the same checks on broken pages must fail.
    String html = HtmlReport.render(report());
    Seen broken =
        open(
            html.replace(
                "</body>",
                "<script>console.error('boom');</script><script>undefinedFn();</script></body>"));
    assertThat(broken.errors())
        .anySatisfy(e -> assertThat(e).contains("boom"))
        .anySatisfy(e -> assertThat(e).contains("undefinedFn"));
    // A page whose chart script is missing keeps its figures but draws nothing: caught.
    Seen noCharts =
        open(html.replace("querySelectorAll('script.ceiling-chart')", "querySelectorAll('x')"));
    assertThat(noCharts.charts()).isEmpty();
    assertThat(noCharts.figures()).isEqualTo(5);
  }
}
