package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Model;
import dev.ceiling.verdict.ModelConfig;
import dev.ceiling.verdict.VerdictConfig;
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
 * and sets CEILING_CHROMIUM). A probe script, added to a test copy of the page only (the report
 * itself has no script), waits for layout and writes what the browser drew into the DOM that {@code
 * --dump-dom} prints: each SVG's laid-out size and its data points, the verdict line, and every
 * console error or uncaught exception. Chromium's own console log on stderr is read too.
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
          + "var v=document.querySelector('p.pass, p.fail');"
          + "out.push('verdict '+(v?v.textContent:'none'));"
          + "errs.forEach(function(e){out.push('error '+e);});"
          + "var pre=document.createElement('pre');pre.id='ceiling-probe';"
          + "pre.textContent=out.join('\\n');document.body.appendChild(pre);});})();</script>";

  record Seen(List<String> svgs, String verdict, List<String> errors) {}

  Seen open(String html) throws Exception {
    Path page = Files.createTempFile(dir, "page", ".html");
    Files.writeString(page, html.replace("<head>", "<head>" + PROBE), StandardCharsets.UTF_8);
    Path profile = Files.createTempDirectory(dir, "chromium-profile");
    Path out = dir.resolve("dom.html");
    Path err = dir.resolve("chromium.log");
    Process p =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-quic",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--enable-logging=stderr",
                "--log-level=0",
                "--virtual-time-budget=5000",
                "--dump-dom",
                page.toUri().toString())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    // Generous: a loaded 2-core machine starts Chromium slowly.
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "Chromium did not finish in 180 s; its log:\n" + Files.readString(err));
    }
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    String log = Files.readString(err, StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("(?s)<pre id=\"ceiling-probe\">(.*?)</pre>").matcher(dom);
    assertThat(m.find()).as("the probe ran; exit %s, log:%n%s", p.exitValue(), log).isTrue();
    List<String> svgs = new ArrayList<>();
    String verdict = null;
    List<String> errors = new ArrayList<>();
    for (String line : m.group(1).replace("&gt;", ">").replace("&lt;", "<").split("\n", -1)) {
      if (line.startsWith("svg ")) {
        svgs.add(line);
      } else if (line.startsWith("verdict ")) {
        verdict = line.substring("verdict ".length());
      } else if (line.startsWith("error ")) {
        errors.add(line.substring("error ".length()));
      }
    }
    // Chromium's own console log: any error-level console message or uncaught exception.
    for (String line : log.split("\n", -1)) {
      if (line.contains("CONSOLE") && (line.contains("Uncaught") || line.contains("rror"))) {
        errors.add("chromium log: " + line);
      }
    }
    return new Seen(svgs, verdict, errors);
  }

  static ExperimentReport report() {
    return Model.report(
        new ModelConfig(List.of(250.0, 500.0, 750.0, 1000.0), 4, 3, 200, 550, 1),
        VerdictConfig.defaults());
  }

  @Test
  void chartsRenderWithDataPointsNoConsoleErrorAndTheVerdictMatchesReportJson() throws Exception {
    ExperimentReport r = report();
    Path json = dir.resolve("report.json");
    Json.write(json, r);
    ExperimentReport fromJson = Json.read(json, ExperimentReport.class);

    Seen seen = open(HtmlReport.render(r));

    assertThat(seen.errors()).isEmpty();
    assertThat(seen.svgs()).hasSizeGreaterThanOrEqualTo(2);
    for (String svg : seen.svgs()) {
      // "svg i WxH shapes N": laid out at a real size, with a shape per data point at least.
      String[] f = svg.split(" ", -1);
      String[] wh = f[2].split("x", -1);
      assertThat(Integer.parseInt(wh[0])).as(svg).isGreaterThan(100);
      assertThat(Integer.parseInt(wh[1])).as(svg).isGreaterThan(100);
      assertThat(Integer.parseInt(f[4])).as(svg).isGreaterThanOrEqualTo(4);
    }
    assertThat(seen.verdict())
        .isEqualTo(fromJson.verdict().established() ? "ESTABLISHED" : "NOT ESTABLISHED");
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
    Seen noCharts = open(html.replaceAll("(?s)<svg.*?</svg>", ""));
    assertThat(noCharts.svgs()).isEmpty();
  }
}
