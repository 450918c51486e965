package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.base.Splitter;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweep;
import dev.ceiling.experiment.DelaySweepCell;
import dev.ceiling.experiment.DelaySweepContrast;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.DelaySweepResult;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.Tost;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durability contrast of {@code ceiling sensitivity} on the real reference relay auditing to a
 * real PostgreSQL server through the rig's delay proxy: the same plan with {@code
 * synchronous_commit} on (the base arm) and off (the contrast arm). Needs CEILING_TEST_PG_URL
 * (.ci/run starts a throwaway server and sets it), e.g.
 * jdbc:postgresql://127.0.0.1:55432/ceiling?user=postgres, naming a database the relay may reset;
 * skipped otherwise.
 *
 * <p>What any machine can be held to is the wire: synchronous_commit changes when PostgreSQL
 * answers COMMIT, not how many times the two sides take turns, so the proxy's count of round trips
 * per audit entry, pooled over every cell an arm measured, must be the same in both arms. Its
 * partner is an arm whose relay makes one exchange fewer per entry: its wire count must be lower by
 * about one, and a comparison of it with the base must not read "the same round trips". The timing
 * (the slopes' agreement, the intercept difference) is the quiet-machine test below: the arms run
 * one after the other, and beside a loaded suite the cells of 1 s are excluded as generator-bound
 * or slowly scraped, and the worker's rate moves with the load (9 to 57/s at one delay in one run
 * at a load of 8).
 */
class DelaySweepContrastIT {
  @TempDir Path dir;

  /** The shortest plan the command takes: two delays x two repeats of 1 s windows per arm. */
  private static final String[] SHORT_PLAN = {
    "--delays", "2,4", "--repeats", "2", "--duration", "1", "--rate", "120", "--seed", "5"
  };

  @Test
  void synchronousCommitOffKeepsEveryRoundTripOnTheWire() throws Exception {
    Path out = dir.resolve("out");
    Cli.Outcome o = contrast(out, SHORT_PLAN);
    // 0 or 1: whether the slopes' TOST agrees is the machine's to decide at these short cells.
    assertThat(o.code()).as(o.toString()).isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
    assertThat(o.out().lines().findFirst().orElse(""))
        .as("the contrast's answer first; %s", o)
        .contains("the contrast {synchronous_commit=off}");
    DelaySweepContrast c = Json.read(out.resolve("contrast.json"), DelaySweepContrast.class);
    assertThat(c.schema()).isEqualTo(DelaySweepContrast.SCHEMA);
    assertThat(c.contrastParameters()).isEqualTo(Map.of("synchronous_commit", "off"));
    DelaySweepReport base = c.base();
    DelaySweepReport off = c.contrast();
    assertThat(off).as(o.toString()).isNotNull();
    // One plan, fixed before the base arm's first cell, run by both arms.
    assertThat(off.plan()).isEqualTo(base.plan()).isEqualTo(c.plan());
    assertThat(base.complete() && off.complete()).as(o.toString()).isTrue();
    // Each arm's relay was launched with its setting.
    assertThat(base.rig().relayInfo()).containsEntry("parameter.synchronous_commit", "on");
    assertThat(off.rig().relayInfo()).containsEntry("parameter.synchronous_commit", "off");
    double wireOn = wire(base);
    double wireOff = wire(off);
    String figures =
        String.format(
            "wire %.3f (on) and %.3f (off) turns per entry; per cell %s (on) and %s (off)%n%s",
            wireOn, wireOff, perCell(base), perCell(off), o.out());
    System.out.println("DelaySweepContrastIT: " + figures);
    // The six statements per entry, in both arms, exactly: each cell's counts are read with
    // nothing in flight (the backlog drained), so no entry has some of its turns counted and not
    // itself. Beside two busy loops every cell read 6 turns per entry (918/153, 1434/239, ...);
    // without the drain a cell can read 5.77.
    assertThat(wireOn).as(figures).isCloseTo(6.0, within(0.02));
    assertThat(wireOff).as(figures).isCloseTo(6.0, within(0.02));
    assertThat(out.resolve("contrast").resolve("sensitivity.html")).exists();
    assertThat(o.out()).contains("contrast: " + out.resolve("contrast.json"));

    // Partner: an arm whose relay makes five exchanges per entry instead of six, on the same plan.
    DelaySweepResult five = fiveExchanges(dir.resolve("five"), base);
    DelaySweepReport fewer = five.report();
    assertThat(fewer).as(five.problems().toString()).isNotNull();
    double wireFive = wire(fewer);
    assertThat(wireFive)
        .as("five exchanges: %.3f; %s", wireFive, figures)
        .isCloseTo(5.0, within(0.02));
    DelaySweepContrast mutant =
        DelaySweepContrast.of(base.plan(), Map.of("audit_exchanges", "5"), base, fewer, null);
    assertThat(mutant.established()).as(mutant.answer()).isFalse();
    if (mutant.comparison() != null) {
      assertThat(mutant.comparison().slopeDifference().reading())
          .as(mutant.answer())
          .isNotEqualTo(Tost.Reading.CONSISTENT);
    }
  }

  /** Each cell's turns over its entries, as "turns/entries". */
  private static List<String> perCell(DelaySweepReport arm) {
    return arm.cells().stream()
        .map(c -> c.link().turns() + "/" + (c.auditEvents() == null ? "-" : c.auditEvents()))
        .toList();
  }

  /**
   * The proxy's turns over the audit entries completed, pooled over every cell the arm measured,
   * used for the fit or not: the wire does not depend on whether a cell was judged usable.
   */
  private static double wire(DelaySweepReport arm) {
    long turns = 0;
    double entries = 0;
    for (DelaySweepCell cell : arm.cells()) {
      if (cell.link() != null && cell.auditEvents() != null) {
        turns += cell.link().turns();
        entries += cell.auditEvents();
      }
    }
    assertThat(entries).as("audit entries over %s cells", arm.cells().size()).isPositive();
    return turns / entries;
  }

  /**
   * Known answer on a quiet machine: synchronous_commit off changes no round trip, so the two arms'
   * slopes agree within the default margin of 0.5 (TOST), and the intercept difference is reported
   * with its interval. Longer cells, three repeats, and delays spread to 7 ms, for slope intervals
   * narrow enough to be inside the margin: on a grid of 1 to 4 ms the arms read 6.5 [6.0, 7.1] and
   * 6.4 [6.1, 6.6], and the difference's interval [-0.34, 0.66] crossed the margin. Run it alone:
   * {@code mvn -pl cli test -Dtest=DelaySweepContrastIT -Dceiling.quietMachineTests=none},
   * recording the load average before and after.
   */
  @Test
  @Tag("quiet-machine")
  void onAQuietMachineTheSlopesAgreeAndTheFlushIsTheInterceptDifference() throws Exception {
    Path out = dir.resolve("quiet");
    Cli.Outcome o =
        contrast(
            out,
            "--delays",
            "1,2.5,4,5.5,7",
            "--repeats",
            "3",
            "--duration",
            "3",
            "--rate",
            "250",
            "--seed",
            "11");
    DelaySweepContrast c = Json.read(out.resolve("contrast.json"), DelaySweepContrast.class);
    System.out.println("DelaySweepContrastIT quiet: " + c.answer());
    assertThat(c.comparison()).as(o.toString()).isNotNull();
    assertThat(c.comparison().slopeDifference().reading())
        .as(o.toString())
        .isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(c.established()).as(o.toString()).isTrue();
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.ESTABLISHED);
  }

  /** {@code ceiling sensitivity --contrast synchronous_commit=off} on the test's PostgreSQL. */
  private static Cli.Outcome contrast(Path out, String... plan) throws IOException {
    List<String> args = new ArrayList<>(List.of("sensitivity"));
    args.addAll(List.of(plan));
    args.addAll(List.of("--profile", "reference-postgres-linked", "--link", "db"));
    postgresParameters().forEach((k, v) -> args.addAll(List.of("--param", k + "=" + v)));
    args.addAll(
        List.of(
            "--param",
            "port=" + FreePorts.one(),
            "--param",
            "exchange_delay_ms=0",
            "--param",
            "queue_capacity=20",
            "--param",
            "calibration_runs=20",
            "--contrast",
            "synchronous_commit=off",
            "--out",
            out.toString()));
    return run(args.toArray(String[]::new));
  }

  /** The partner arm: the base arm's plan on a relay making five exchanges per entry. */
  private static DelaySweepResult fiveExchanges(Path out, DelaySweepReport base) throws Exception {
    Map<String, String> params = new TreeMap<>(postgresParameters());
    params.put("port", Integer.toString(FreePorts.one()));
    params.put("exchange_delay_ms", "0");
    params.put("queue_capacity", "20");
    params.put("calibration_runs", "20");
    params.put("audit_exchanges", "5");
    return DelaySweep.builder()
        .profile(RelayProfile.builtIn("reference-postgres-linked"))
        .link("db")
        .delaysMs(base.plan().delaysMs())
        .repeats(base.plan().repeats())
        .duration(Duration.ofNanos(Math.round(base.plan().durationS() * 1e9)))
        .rate(base.plan().offeredPerS())
        .seed(base.plan().seed())
        .relayOverrides(params)
        .sweepOptions(
            SweepOptions.defaults(out.resolve("journal.jsonl")).withWarmup(Duration.ofSeconds(1)))
        .outDir(out)
        .run();
  }

  /**
   * pg_host, pg_port, pg_database and pg_user from CEILING_TEST_PG_URL; skips the test without it.
   */
  private static Map<String, String> postgresParameters() {
    String url = System.getenv("CEILING_TEST_PG_URL");
    Assumptions.assumeTrue(
        url != null && !url.isBlank(), "CEILING_TEST_PG_URL not set: PostgreSQL test skipped");
    URI u = URI.create(url.substring("jdbc:".length()));
    String user =
        u.getQuery() == null
            ? "postgres"
            : Splitter.on('&')
                .withKeyValueSeparator('=')
                .split(u.getQuery())
                .getOrDefault("user", "postgres");
    return Map.of(
        "pg_host",
        u.getHost(),
        "pg_port",
        Integer.toString(u.getPort()),
        "pg_database",
        u.getPath().substring(1),
        "pg_user",
        user);
  }
}
