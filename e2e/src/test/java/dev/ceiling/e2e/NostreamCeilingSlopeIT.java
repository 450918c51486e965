package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.CeilingRamp;
import dev.ceiling.experiment.DelaySweep;
import dev.ceiling.experiment.DelaySweepCell;
import dev.ceiling.experiment.DelaySweepFile;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.DelaySweepResult;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.Tost;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ceiling slope on nostream, a relay that collapses above its ceiling: each cell of the sweep
 * of its PostgreSQL link {@code db} is a ramp at its delay ({@code DelaySweepPlan.PointRamp}), the
 * cell's ceiling the highest OK-true rate a step sustained. With one worker and a pool of one
 * database connection every event's INSERT waits its round trip on that one connection, so the link
 * bounds the ceiling: 1 / C grows by 1 round trip x d over a concurrency of 1. With the default
 * pool (up to 3 connections) the link carries three events' round trips at once and, over the grid
 * used here, the relay's one worker bounds it first.
 *
 * <p>In the test command, what does not depend on the machine's load: the plan declares the point
 * ramp before the first cell and every cell's ramp follows it (the file's reader applies the rule
 * again); the independent truth of the link's concurrency, from PostgreSQL's own log (the session
 * of each INSERT into events): one session with a pool of one, two or three with the default pool
 * (each the other's partner); and a physical bound: with one connection and at least d ms a round
 * trip, no cell at d can be read above 1000 / d events/s (a reading of a collapsed step, or of the
 * warm-up's backlog, could be; a loaded machine only lowers the ceiling). The slope itself is
 * timing and goes under the quiet-machine tag.
 */
class NostreamCeilingSlopeIT {
  static final Path PROFILE_DIR = NostreamWireCountIT.PROFILE_DIR;

  private static Map<String, String> env;

  @TempDir Path dir;

  @BeforeAll
  static void nostreamIsSetUp() throws Exception {
    String status = System.getenv("CEILING_NOSTREAM_STATUS");
    String why;
    if (status != null && !status.isBlank()) {
      why = NostreamWireCountIT.awaitSetup(Path.of(status));
    } else {
      why =
          "CEILING_NOSTREAM_STATUS is not set (.ci/run sets it; NostreamWireCountIT runs the setup"
              + " by itself, this test does not)";
    }
    if (why != null) {
      System.err.println(
          "\n*** SKIPPING NostreamCeilingSlopeIT: "
              + why
              + ". The ceiling slope on nostream did NOT run. ***\n");
      Assumptions.abort(why);
    }
    env =
        NostreamWireCountIT.readEnv(
            Path.of(System.getenv("CEILING_NOSTREAM_DIR")).resolve("ceiling.env"));
  }

  /**
   * Two short sweeps of {@code db}, delays 6 and 7 ms x 2 repeats (the fewest the sweep takes),
   * each cell a ramp from 100/s doubling up to 400/s over 1 s windows: with a pool of one
   * connection (at most about 160/s at 6 ms: two steps), then with the default pool (three).
   */
  // Bounded, not sized: at a load of 28 on a shared 2-core machine (nostream answering 0 to 18/s)
  // both sweeps took 268 s; on a quiet machine they should take about a minute (not yet measured).
  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void withOneConnectionTheRelayUsesOneSessionAndNoCellReadsAboveOneRoundTripPerEvent()
      throws Exception {
    CeilingRamp.Rule rule = new CeilingRamp.Rule(100, 2, 0.1, 400, 1);
    List<Double> delays = List.of(6.0, 7.0);
    Path log = Path.of(env.get("NOSTREAM_PG_LOG"));

    long from = Files.size(log);
    DelaySweepReport one =
        sweep(dir.resolve("pool-1"), "1", delays, 2, rule, Duration.ofSeconds(1));
    Set<String> oneSessions = insertSessions(log, from);
    from = Files.size(log);
    DelaySweepReport three =
        sweep(dir.resolve("pool-3"), "3", delays, 2, rule, Duration.ofSeconds(1));
    Set<String> threeSessions = insertSessions(log, from);
    System.err.println(
        "NostreamCeilingSlopeIT: INSERT sessions, pool 1: "
            + oneSessions
            + "; default pool: "
            + threeSessions);

    for (DelaySweepReport r : List.of(one, three)) {
      // Declared before the first cell, and every cell's ramp by that rule: the reader applies it.
      assertThat(r.plan().pointRamp()).isNotNull();
      assertThat(r.plan().pointRamp().rule()).isEqualTo(rule);
      assertThat(DelaySweepFile.problems(r)).isEmpty();
      assertThat(r.cells()).hasSize(4).allSatisfy(c -> assertThat(c.pointRamp()).isNotNull());
    }
    // The independent truth of the link's concurrency: PostgreSQL's log, not Ceiling.
    assertThat(oneSessions).as("pool of 1").hasSize(1);
    assertThat(threeSessions).as("default pool of 3").hasSizeBetween(2, 3);
    // Partner: each pool's count is not the other's.
    assertThat(threeSessions).hasSizeGreaterThan(oneSessions.size());

    // The physical bound with one connection: at most one event per round trip of d ms, within
    // the window's counting (10%, the ramp's tolerance).
    for (DelaySweepCell c : one.cells()) {
      if (c.ceilingPerS() != null) {
        assertThat(c.ceilingPerS())
            .as("pool 1 at %s ms", c.planned().addedDelayMs())
            .isLessThanOrEqualTo(1.1 * 1000 / c.planned().addedDelayMs());
      }
    }
  }

  /**
   * The known answer by the clock: pool 1 on delays 3, 5 and 7 ms (where the link, not the worker,
   * bounds it: at 3 ms one connection allows about 300/s, below the worker's 400/s), its ceiling
   * slope CONSISTENT with 1 round trip over 1 connection within ±0.5, reading "the link bounds it";
   * the default pool on 0, 1.5 and 3 ms (three connections allow about 900/s at 3 ms, over twice
   * the worker's ceiling) CONSISTENT with 0, "not what bounds it". Partners: each fit against the
   * other's answer is not CONSISTENT.
   */
  @Test
  @Tag("quiet-machine")
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void onAQuietMachineTheCeilingSlopeIsOneOverThePoolOrNone() throws Exception {
    DelaySweepReport one =
        sweep(
            dir.resolve("pool-1"),
            "1",
            List.of(3.0, 5.0, 7.0),
            3,
            new CeilingRamp.Rule(100, 1.2, 0.1, 600, 2),
            Duration.ofSeconds(2));
    DelaySweepReport three =
        sweep(
            dir.resolve("pool-3"),
            "3",
            List.of(0.0, 1.5, 3.0),
            3,
            new CeilingRamp.Rule(150, 1.2, 0.1, 900, 2),
            Duration.ofSeconds(2));
    assertThat(one.fit()).as(one.fitProblem()).isNotNull();
    assertThat(three.fit()).as(three.fitProblem()).isNotNull();
    Tost.Reading oneAtOne = Sensitivity.againstCount(one.fit(), 1, 0.5, 0.05).reading();
    Tost.Reading threeAtZero = Sensitivity.againstCount(three.fit(), 0, 0.5, 0.05).reading();
    assertThat(oneAtOne).as(one.answer()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(threeAtZero).as(three.answer()).isEqualTo(Tost.Reading.CONSISTENT);
    // Partners: the pool of one does not read "not what bounds it", the default pool not 1.
    assertThat(Sensitivity.againstCount(one.fit(), 0, 0.5, 0.05).reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
    assertThat(Sensitivity.againstCount(three.fit(), 1, 0.5, 0.05).reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
  }

  /**
   * One sweep of {@code db} with nostream's pool at {@code pool} connections, every cell a ramp.
   */
  private static DelaySweepReport sweep(
      Path out,
      String pool,
      List<Double> delays,
      int repeats,
      CeilingRamp.Rule rule,
      Duration window)
      throws Exception {
    Files.createDirectories(out);
    DelaySweepResult r =
        DelaySweep.builder()
            .profile(RelayProfile.load(PROFILE_DIR.resolve("profile.json")))
            .relayOverrides(
                Map.of(
                    "nostream_dir", env.get("NOSTREAM_DIR"),
                    "pg_port", env.get("NOSTREAM_PG_PORT"),
                    "redis_port", env.get("NOSTREAM_REDIS_PORT"),
                    "db_max_pool_size", pool,
                    "port", Integer.toString(FreePorts.one())))
            .link("db")
            .delaysMs(delays)
            .repeats(repeats)
            .duration(window)
            .pointRamp(rule, 1)
            .seed(7)
            .sweepOptions(
                SweepOptions.defaults(out.resolve("journal.jsonl"))
                    .withWarmup(Duration.ofMillis(500))
                    .withGrace(Duration.ofSeconds(1)))
            .outDir(out)
            .run();
    DelaySweepReport s = r.report();
    assertThat(s).as(String.join("; ", r.problems())).isNotNull();
    System.err.println("NostreamCeilingSlopeIT (pool " + pool + "): " + s.answer());
    for (DelaySweepCell c : s.cells()) {
      System.err.printf(
          Locale.ROOT,
          "  %.1f ms: ceiling %s (%s), ramp: %s%n",
          c.planned().addedDelayMs(),
          c.ceilingPerS(),
          c.ceilingUsed() ? "used" : c.notUsed(),
          c.pointRamp() == null ? "none" : c.pointRamp().text());
    }
    return s;
  }

  /** The log line of an INSERT into events, its session id (%c, after the pid) captured. */
  private static final Pattern INSERT =
      Pattern.compile(
          "\\[\\d+\\] (\\S+) LOG:  (?:statement|execute [^:]*): insert into \"events\"");

  /** The sessions whose INSERTs into events PostgreSQL logged from byte {@code from} on. */
  private static Set<String> insertSessions(Path log, long from) throws IOException {
    Set<String> out = new TreeSet<>();
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      f.seek(from);
      byte[] rest = new byte[(int) (f.length() - from)];
      f.readFully(rest);
      for (String line : new String(rest, StandardCharsets.UTF_8).split("\n", -1)) {
        Matcher m = INSERT.matcher(line);
        if (m.find()) {
          out.add(m.group(1));
        }
      }
    }
    return out;
  }
}
