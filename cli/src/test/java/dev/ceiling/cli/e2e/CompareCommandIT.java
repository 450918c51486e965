package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Main;
import dev.ceiling.cli.report.Comparison;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.experiment.Identities;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.experiment.SweepProgress;
import dev.ceiling.experiment.SweepRunner;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.CellAssessment;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictConfig;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling compare} on half-runs the real tool measured on the reference relay: three sweeps
 * of its treatment arm at one saturating rate, two with the same audit exchange delay (an unchanged
 * relay) and one with three times the delay (a regression of the audit worker). The worker
 * completes about 1 / (6 (c + d)) events/s, so 2 ms against 6 ms is a loss of well over half.
 *
 * <p>{@code compare} is a pure function of its two files, so the known answers read three committed
 * half-runs (src/test/resources/dev/ceiling/cli/e2e/compare/), which {@link #regenerateFixtures}
 * measured with the plan below; measuring them here cost about 170 s of the test command for
 * answers that depend on the files alone. To measure them again (after a change to the half-run's
 * format, say): {@code mvn -pl cli test -Dtest=CompareCommandIT#regenerateFixtures
 * -Dceiling.compareFixtures=$PWD/cli/src/test/resources/dev/ceiling/cli/e2e/compare}. One real
 * end-to-end run stays in the test command ({@link #compareReadsWhatTodaysSweepWrites}): a short
 * sweep, compared as a user would, so that the fixtures cannot hide a format {@code compare} no
 * longer reads.
 *
 * <p>The margin is 40%: the worker's delay is a sleep, and on a machine at a load of 25 two runs of
 * the same relay measured 65.5/s and 55.8/s (cells excluded as generator-bound besides), which a
 * 30% margin could not tell from a regression; the 6 ms relay loses well over half, far beyond 40%.
 */
class CompareCommandIT {
  /** Evidence cells each passing run needs: a t interval with three or more degrees of freedom. */
  private static final int MIN_EVIDENCE_CELLS = 4;

  /** Repeats of each fixture run: the plan leaves room for three cells a busy machine excludes. */
  private static final int REPEATS = 7;

  /** Where the committed half-runs are, on the test classpath. */
  private static final String FIXTURES = "/dev/ceiling/cli/e2e/compare/";

  @TempDir static Path dir;
  static Path baseline;
  static Path unchanged;
  static Path slower;

  /**
   * The committed half-runs, copied once for the class and their plan checked; loaded by the tests
   * that read them (not before all), so that {@link #regenerateFixtures} runs without them.
   */
  private static synchronized void fixtures() throws Exception {
    if (slower != null) {
      return;
    }
    Path b = fixture("baseline.json");
    Path u = fixture("unchanged.json");
    Path s = fixture("slower.json");
    // The plan: enough evidence in each run that passes, or the failure says so first.
    assertPlan(b);
    assertPlan(u);
    baseline = b;
    unchanged = u;
    slower = s;
  }

  /** A committed half-run, copied to a file as a user's would be. */
  private static Path fixture(String name) throws Exception {
    Path file = dir.resolve(name);
    try (InputStream in = CompareCommandIT.class.getResourceAsStream(FIXTURES + name)) {
      assertThat(in).as("fixture %s%s on the test classpath", FIXTURES, name).isNotNull();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    return file;
  }

  /** Busy, steady evidence cells: at least {@link #MIN_EVIDENCE_CELLS}. */
  private static void assertPlan(Path run) throws Exception {
    long evidence =
        Verdict.evaluateSingleArm(Json.read(run, HalfRun.class), VerdictConfig.defaults())
            .cells()
            .stream()
            .filter(CellAssessment::workerRateUsed)
            .count();
    assertThat(evidence)
        .as("plan: busy, steady evidence cells in %s%s", run.getFileName(), cells(run))
        .isGreaterThanOrEqualTo(MIN_EVIDENCE_CELLS);
  }

  /**
   * Measures the three committed half-runs again, into the directory named by the system property
   * {@code ceiling.compareFixtures}; never part of the test command (the class comment says how to
   * run it). The plan is the one the fixtures were measured with, checked before anything is
   * written.
   */
  @Test
  @EnabledIfSystemProperty(named = "ceiling.compareFixtures", matches = ".+")
  void regenerateFixtures() throws Exception {
    Path out = Path.of(System.getProperty("ceiling.compareFixtures"));
    // One pair of ports for all three: the community hosts name the port, and runs that offered
    // load to different hosts are not runs of the same plan.
    Map<String, String> ports = Relays.freePorts(Map.of());
    // Seven repeats, one plan for all three (compare refuses runs of different plans): beside a
    // busy machine (load 14 on 2 cores) a run lost two of four cells (headroom, send lag), and two
    // cells left an interval too wide for a 40% margin; at a load of 15, three of six (slow scrapes
    // besides).
    Path b = sweep("baseline", 2.0, ports, REPEATS, Duration.ofMillis(1500), 3.0);
    Path u = sweep("unchanged", 2.0, ports, REPEATS, Duration.ofMillis(1500), 3.0);
    Path s = sweep("slower", 6.0, ports, REPEATS, Duration.ofMillis(1500), 3.0);
    assertPlan(b);
    assertPlan(u);
    Files.createDirectories(out);
    for (Path f : List.of(b, u, s)) {
      Files.copy(
          f,
          out.resolve(f.getFileName().toString().replace("half-", "")),
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** One arm's half-run, written where a user's 'ceiling sweep --json' would write it. */
  private static Path sweep(
      String name,
      double exchangeDelayMs,
      Map<String, String> ports,
      int repeats,
      Duration warmup,
      double windowS)
      throws Exception {
    RelayProfile p = Relays.reference();
    Map<String, String> overrides = new HashMap<>(ports);
    overrides.put("exchange_delay_ms", Double.toString(exchangeDelayMs));
    // 40: full within the warm-up at either delay, drained in under two seconds between cells, and
    // steady within 5% of it (two events) while full.
    overrides.put("queue_capacity", "40");
    overrides.put("calibration_runs", "100");
    UpOptions up =
        UpOptions.of(p, "on", dir.resolve("rig-" + name)).withReset(true).withOverrides(overrides);
    try (RigHandle rig = Rig.up(up)) {
      SweepOptions options =
          Relays.quickSweep(dir.resolve(name))
              .withJournal(dir.resolve("journal-" + name + ".jsonl"))
              .withWarmup(warmup);
      // 200/s is well above the worker's rate at either delay (about 70/s and 26/s), so the queue
      // stays full and each cell measures the worker. A 3 s window: a cell whose scrapes take more
      // than a tenth of it is excluded, and on a machine at a load of 30 they took up to 0.4 s.
      ExperimentIdentity id =
          Identities.of(
              p, rig.descriptor(), List.of(200.0), windowS, repeats, null, options.measurement());
      SweepRunner.Outcome o =
          new SweepRunner(
                  new MetricsScraper(
                      Duration.ofSeconds(2), Duration.ofSeconds(5), 16 * 1024 * 1024),
                  new SweepProgress() {})
              .run(rig.descriptor(), id, options);
      assertThat(o.failure()).isNull();
      Path file = dir.resolve("half-" + name + ".json");
      Json.write(file, o.half());
      return file;
    }
  }

  record Outcome(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  private static Outcome compare(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "compare";
    System.arraycopy(args, 0, all, 1, args.length);
    int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Outcome(code, out.toString(), err.toString());
  }

  /** What the verdict made of each cell of each run, for a failure's message. */
  private static String cells(Path... files) throws Exception {
    StringBuilder b = new StringBuilder();
    for (Path f : files) {
      HalfRun h = Json.read(f, HalfRun.class);
      for (CellAssessment a : Verdict.evaluateSingleArm(h, VerdictConfig.defaults()).cells()) {
        b.append(
            String.format(
                Locale.ROOT,
                "%n  %s %s %s worker=%s %s",
                f.getFileName(),
                a.cell().label(),
                a.use(),
                a.workerRateUsed(),
                a.problems().stream().map(p -> p.kind() + ": " + p.message()).toList()));
      }
    }
    return b.toString();
  }

  @Test
  void anUnchangedRelayPassesAndWritesBothFiles() throws Exception {
    fixtures();
    Path json = dir.resolve("unchanged-compare.json");
    Path html = dir.resolve("unchanged-compare.html");
    Outcome o =
        compare(
            baseline.toString(),
            unchanged.toString(),
            "--margin",
            "40%",
            "--json",
            json.toString(),
            "--html",
            html.toString());
    assertThat(o.code()).as(o + cells(baseline, unchanged)).isEqualTo(ExitCode.ESTABLISHED);
    assertThat(o.out()).as(o.toString()).startsWith("Yes: no regression beyond a margin of 40%");
    // The two relays differ only in their ports: nothing the comparison calls a change.
    assertThat(o.out()).as(o.toString()).doesNotContain("exchange_delay_ms");
    Comparison c = Json.mapper().readValue(json.toFile(), Comparison.class);
    assertThat(c.result().nonInferior()).isTrue();
    assertThat(c.result().baselineN()).isGreaterThanOrEqualTo(2);
    assertThat(Files.readString(html)).contains("Yes: no regression");
  }

  @Test
  void moreAuditExchangeDelayIsCaughtAsARegression() throws Exception {
    fixtures();
    Path json = dir.resolve("slower-compare.json");
    Outcome o =
        compare(
            baseline.toString(), slower.toString(), "--margin", "40%", "--json", json.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out())
        .as(o.toString())
        .startsWith("No: could not show non-inferiority")
        .contains("relay_parameters.exchange_delay_ms");
    Comparison c = Json.mapper().readValue(json.toFile(), Comparison.class);
    assertThat(c.result().difference()).as(o.toString()).isLessThan(-c.result().margin());
  }

  @Test
  void anIntervalWiderThanTheMarginNeverPasses() throws Exception {
    fixtures();
    // The same run against itself: the change is exactly zero, but the interval around it has the
    // width of the cells' own noise, and a margin of 0% leaves it no room.
    Outcome o = compare(baseline.toString(), baseline.toString(), "--margin", "0%");
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out()).as(o.toString()).startsWith("No: could not show non-inferiority");
    // Partner: the same run with room for its noise passes.
    Outcome wide = compare(baseline.toString(), baseline.toString(), "--margin", "40%");
    assertThat(wide.code()).as(wide.toString()).isEqualTo(ExitCode.ESTABLISHED);
  }

  /**
   * The one real end-to-end run: a sweep measured now (the fixtures' relay and rate, two repeats of
   * a 1.5 s window after a 1 s warm-up), compared against itself as a user would. What it holds is
   * the command's contract on what today's sweep writes, whatever the machine makes of two short
   * cells: a verdict code (0 or 1, never bad input or an infrastructure failure), an answer on
   * stdout that agrees with the code and with the JSON written beside it, and the HTML page. Its
   * partner is the zero margin, which must not pass on the same files. The answers themselves are
   * the fixtures' tests above.
   */
  @Test
  void compareReadsWhatTodaysSweepWrites() throws Exception {
    Path today = sweep("today", 2.0, Relays.freePorts(Map.of()), 2, Duration.ofSeconds(1), 1.5);
    Path json = dir.resolve("today-compare.json");
    Path html = dir.resolve("today-compare.html");
    Outcome o =
        compare(
            today.toString(),
            today.toString(),
            "--margin",
            "40%",
            "--json",
            json.toString(),
            "--html",
            html.toString());
    assertThat(o.code()).as(o + cells(today)).isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
    Comparison c = Json.mapper().readValue(json.toFile(), Comparison.class);
    String answer = c.result().nonInferior() ? "Yes: " : "No: ";
    assertThat(o.code() == ExitCode.ESTABLISHED)
        .as(o.toString())
        .isEqualTo(c.result().nonInferior());
    assertThat(o.out()).as(o.toString()).startsWith(answer);
    assertThat(Files.readString(html)).as(o.toString()).contains(answer);
    // Partner: no room at all never passes, on the same two files.
    Outcome zero = compare(today.toString(), today.toString(), "--margin", "0%");
    assertThat(zero.code()).as(zero.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(zero.out()).as(zero.toString()).startsWith("No: ");
  }
}
