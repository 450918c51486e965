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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling compare} on real half-runs of the reference relay: three short sweeps of its
 * treatment arm at one saturating rate, two with the same audit exchange delay (an unchanged relay)
 * and one with three times the delay (a regression of the audit worker). The worker completes about
 * 1 / (6 (c + d)) events/s, so 2 ms against 6 ms is a loss of well over half.
 *
 * <p>The margin is 40%: the worker's delay is a sleep, and on a machine at a load of 25 two runs of
 * the same relay measured 65.5/s and 55.8/s (cells excluded as generator-bound besides), which a
 * 30% margin could not tell from a regression; the 6 ms relay loses well over half, far beyond 40%.
 */
class CompareCommandIT {
  /** Evidence cells each passing run needs: a t interval with three or more degrees of freedom. */
  private static final int MIN_EVIDENCE_CELLS = 4;

  /** Repeats of each run: the plan leaves room for three cells a busy machine excludes. */
  private static final int REPEATS = 7;

  @TempDir static Path dir;
  static Path baseline;
  static Path unchanged;
  static Path slower;

  @BeforeAll
  static void measure() throws Exception {
    // One pair of ports for all three: the community hosts name the port, and runs that offered
    // load to different hosts are not runs of the same plan.
    Map<String, String> ports = Relays.freePorts(Map.of());
    // Seven repeats, one plan for all three (compare refuses runs of different plans): beside a
    // busy machine (load 14 on 2 cores) a run lost two of four cells (headroom, send lag), and two
    // cells left an interval too wide for a 40% margin; at a load of 15, three of six (slow scrapes
    // besides).
    baseline = sweep("baseline", 2.0, ports);
    unchanged = sweep("unchanged", 2.0, ports);
    slower = sweep("slower", 6.0, ports);
    // The plan: enough evidence in each run that passes, or the failure says so first.
    for (Path run : List.of(baseline, unchanged)) {
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
  }

  /** One arm's half-run, written where a user's 'ceiling sweep --json' would write it. */
  private static Path sweep(String name, double exchangeDelayMs, Map<String, String> ports)
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
              .withWarmup(Duration.ofMillis(1500));
      // 200/s is well above the worker's rate at either delay (about 70/s and 26/s), so the queue
      // stays full and each cell measures the worker. A 3 s window: a cell whose scrapes take more
      // than a tenth of it is excluded, and on a machine at a load of 30 they took up to 0.4 s.
      ExperimentIdentity id =
          Identities.of(
              p, rig.descriptor(), List.of(200.0), 3.0, REPEATS, null, options.measurement());
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
    Path json = dir.resolve("unchanged.json");
    Path html = dir.resolve("unchanged.html");
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
    Path json = dir.resolve("slower.json");
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
  void anIntervalWiderThanTheMarginNeverPasses() {
    // The same run against itself: the change is exactly zero, but the interval around it has the
    // width of the cells' own noise, and a margin of 0% leaves it no room.
    Outcome o = compare(baseline.toString(), baseline.toString(), "--margin", "0%");
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out()).as(o.toString()).startsWith("No: could not show non-inferiority");
    // Partner: the same run with room for its noise passes.
    Outcome wide = compare(baseline.toString(), baseline.toString(), "--margin", "40%");
    assertThat(wide.code()).as(wide.toString()).isEqualTo(ExitCode.ESTABLISHED);
  }
}
