package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellUse;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.VerdictConfig;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limiter trap again, in the delay sweep: the built-in profile {@code reference-linked} with
 * its admission limiter at the relay's stock settings (10 events/s per identity over a 5 s fixed
 * window) instead of raised. Every cell is excluded naming the limiter (the relay's quota counter
 * moved, and it answered NOTICEs), there is no fit and no k, the answer says why, and the sweep is
 * not established.
 *
 * <p>How the cells are made otherwise good worker-rate cells, so that the test shows the exclusion
 * and not an absence of data stops k: 4 identities x 50 events per window is a burst of 200 entries
 * admitted within the first 0.7 s of each cell's warm-up (300/s offered), after which every event
 * of the cell is refused. A queue of 4000 holds the whole burst, so no connection blocks and the
 * worker drains it through the 2 s window (200 entries last over 3 s at the 30 to 50/s the worker
 * manages at 2 to 4 ms): busy, and steady (the window drains at most about 100 entries, within 5%
 * of 4000), its completion rate the link's real ceiling. The partner judges the same measured cells
 * again with the limiter's evidence removed (no NOTICE, the quota counter flat): the cells the load
 * left good become points. A straight re-judging of the unchanged cells first shows that the
 * re-judging itself reproduces the sweep's report, so the removal is the only difference.
 *
 * <p>Short cells on a small grid: 3 delays x 2 repeats, each cell 5 to 10 s (mostly the drain of
 * its burst); far below the generator's limits. 70 and 78 s at load averages of 11 and 13, where
 * the partner kept enough points for a k (10.9 [0.1, 21.6] and 7.6 [-14.6, 29.8] against a wire
 * count of 8.2); that k is not asserted, since a loaded machine can leave too few points for one.
 */
class DelaySweepLimiterTrapIT {
  @TempDir Path dir;

  @Test
  void atStockLimitsEveryCellIsExcludedForTheLimiterAndNoKIsReported() throws Exception {
    RelayProfile profile = stockLimits(dir);
    DelaySweepResult r = sweep(profile, dir.resolve("out"));
    String figures = DelaySweepIT.figures(r);
    System.out.println("DelaySweepLimiterTrapIT: " + figures);
    DelaySweepReport report = r.report();
    assertThat(report).as(figures).isNotNull();
    assertThat(r.outcome()).as(figures).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(report.complete()).as(figures).isTrue();
    assertThat(report.cells()).as(figures).hasSize(6);
    for (DelaySweepCell c : report.cells()) {
      assertThat(c.use()).as(figures).isEqualTo(CellUse.EXCLUDED);
      assertThat(c.ceilingUsed()).isFalse();
      // Both signs of the limiter, each with its reason: the relay's quota counter and its words.
      assertThat(c.problems())
          .as("problems of %s; %s", c.planned(), figures)
          .anySatisfy(
              p -> {
                assertThat(p.kind()).isEqualTo(ProblemKind.ADMISSION_QUOTA);
                assertThat(p.excludesEvidence()).isTrue();
                assertThat(p.message()).contains("the admission limiter, not the ingest path");
              })
          .anySatisfy(
              p -> {
                assertThat(p.kind()).isEqualTo(ProblemKind.NOTICES);
                assertThat(p.message()).contains("rate-limited");
              });
    }
    assertThat(report.points()).allSatisfy(p -> assertThat(p.cellsUsed()).isZero());
    assertThat(report.fit()).as(figures).isNull();
    assertThat(report.countCheck()).isNull();
    assertThat(report.established()).isFalse();
    // The answer says there is no k, and why: every cell, for the limiter.
    assertThat(report.answer())
        .as(figures)
        .startsWith("no round-trip count on link 'db'")
        .contains("0 usable cell(s) of 6 measured")
        .contains("ADMISSION_QUOTA in 6")
        .contains("NOTICES in 6");
    // The file says the same, and reads back as measured under its plan.
    DelaySweepReport file = DelaySweepFile.read(r.file());
    assertThat(file.fit()).isNull();
    assertThat(file.answer()).isEqualTo(report.answer());

    // The re-judging is faithful: the unchanged cells give the sweep's own report.
    DelaySweepReport same = rejudge(profile, report, false);
    assertThat(same.cells()).isEqualTo(report.cells());
    assertThat(same.answer()).isEqualTo(report.answer());
    // Partner: the same cells judged without the limiter's evidence. Its two kinds are the only
    // problems that go, the answer no longer names them, and a cell becomes a point: the limiter,
    // not the load, is what excluded it. How many become points is the machine's (slow scrapes and
    // an idle worker stay): beside two busy loops as few as 2 of 6 can, too few for a fit.
    DelaySweepReport blind = rejudge(profile, report, true);
    String blindFigures = blind.answer() + "\ncells " + problemsOf(blind);
    System.out.println("DelaySweepLimiterTrapIT, limiter rule off: " + blindFigures);
    assertThat(blind.cells()).hasSameSizeAs(report.cells());
    for (int i = 0; i < report.cells().size(); i++) {
      List<ProblemKind> others = new ArrayList<>(kinds(report.cells().get(i)));
      others.removeAll(List.of(ProblemKind.ADMISSION_QUOTA, ProblemKind.NOTICES));
      assertThat(kinds(blind.cells().get(i)))
          .as("cell %d without the limiter's evidence; %s", i, blindFigures)
          .isEqualTo(others);
    }
    assertThat(blind.cells().stream().filter(DelaySweepCell::ceilingUsed).count())
        .as("cells used without the limiter's evidence; %s", blindFigures)
        .isPositive();
    assertThat(blind.answer())
        .as(blindFigures)
        .doesNotContain("ADMISSION_QUOTA")
        .doesNotContain("NOTICES");
  }

  private static List<ProblemKind> kinds(DelaySweepCell c) {
    return c.problems().stream().map(CellProblem::kind).toList();
  }

  /**
   * The report {@link DelaySweepAnalysis} makes of the sweep's measured cells, as {@link
   * DelaySweep} makes it; with {@code withoutLimiter} every sign of the limiter removed from them
   * first (the NOTICEs and the quota counter's movement), as a sweep that ignored the limiter would
   * judge them.
   */
  static DelaySweepReport rejudge(
      RelayProfile profile, DelaySweepReport report, boolean withoutLimiter) {
    DelaySweepPlan plan = report.plan();
    ExperimentIdentity judged =
        Identities.of(
            profile,
            report.rig(),
            List.of(plan.offeredPerS()),
            plan.durationS(),
            plan.cells().size(),
            plan.seed(),
            report.measurement());
    List<DelaySweepAnalysis.Measured> measured =
        report.cells().stream()
            .map(
                c ->
                    new DelaySweepAnalysis.Measured(
                        c.planned(),
                        withoutLimiter ? withoutLimiter(c.cell()) : c.cell(),
                        c.link(),
                        c.auditEvents()))
            .toList();
    DelaySweepAnalysis.Progress progress =
        new DelaySweepAnalysis.Progress(
            report.startedAt(),
            report.finishedAt(),
            report.complete(),
            report.incompleteReason(),
            report.sessions());
    return DelaySweepAnalysis.report(
        report.profile(), report.rig(), judged, plan, measured, progress, VerdictConfig.defaults());
  }

  private static Cell withoutLimiter(Cell c) {
    Map<String, Double> deltas = new HashMap<>(c.counterDeltas());
    deltas.put(MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 0.0);
    return c.toBuilder().notices(0).firstNotice(null).counterDeltas(deltas).build();
  }

  private static List<String> problemsOf(DelaySweepReport r) {
    return r.cells().stream()
        .map(
            c ->
                c.planned().addedDelayMs()
                    + " ms: "
                    + c.cell().auditCompletedPerS()
                    + "/s busy "
                    + c.busy()
                    + " steady "
                    + c.steady()
                    + " "
                    + c.problems().stream().map(p -> p.kind().name()).toList())
        .toList();
  }

  static DelaySweepResult sweep(RelayProfile profile, Path out) throws Exception {
    return DelaySweep.builder()
        .profile(profile)
        .link("db")
        .delaysMs(List.of(2.0, 3.0, 4.0))
        .repeats(2)
        .duration(Duration.ofSeconds(2))
        // 75/s per identity: each identity's 50 events of a window go within 0.7 s of the warm-up,
        // and the limiter refuses every later event of the cell.
        .rate(300.0)
        .seed(11)
        .relayOverrides(
            Map.of(
                "port",
                Integer.toString(ScaleOutIT.freePort()),
                "db_port",
                Integer.toString(ScaleOutIT.freePort()),
                "calibration_runs",
                "20",
                "queue_capacity",
                "4000",
                "exchange_delay_ms",
                "0"))
        .sweepOptions(
            SweepOptions.defaults(out.resolve("unused.jsonl"))
                .withIdentities(4)
                .withWarmup(Duration.ofSeconds(1))
                .withGrace(Duration.ofSeconds(1))
                // A busy CI machine's scheduler must not exclude these cells before the limiter
                // does (as in the A/B's limiter trap tests).
                .withSendLagBound(Duration.ofMillis(250))
                .withDrainTimeout(Duration.ofSeconds(30)))
        .outDir(out)
        .run();
  }

  /**
   * The built-in profile {@code reference-linked} with its admission limiter at the reference
   * relay's stock settings, 10 events/s per identity over a 5 s window, instead of raised.
   */
  static RelayProfile stockLimits(Path dir) throws Exception {
    ObjectNode root;
    try (InputStream in =
        RelayProfile.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")) {
      root = (ObjectNode) Json.mapper().readTree(in);
    }
    int changed = 0;
    for (JsonNode l : root.get("limiter")) {
      ObjectNode setting = (ObjectNode) l;
      switch (setting.get("name").asText()) {
        case "limiter_events_per_sec" -> {
          setting.put("value", "10");
          changed++;
        }
        case "limiter_window_secs" -> {
          setting.put("value", "5");
          changed++;
        }
        default -> {}
      }
    }
    if (changed != 2) {
      throw new IllegalStateException("the reference-linked profile's limiter entries changed");
    }
    Path f = dir.resolve("reference-linked-stock-limits.json");
    Files.writeString(f, Json.mapper().writeValueAsString(root));
    return RelayProfile.load(f);
  }
}
