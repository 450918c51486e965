package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.core.testing.SharedNostream;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ceiling slope on nostream, a relay that collapses above its ceiling: each cell of the sweep
 * of its PostgreSQL link {@code db} is a ramp at its delay ({@code DelaySweepPlan.PointRamp}), the
 * cell's ceiling the highest OK-true rate a step sustained.
 *
 * <p>With one worker and a pool of one database connection, every accepted event's one INSERT (one
 * wire turn: {@link NostreamWireCountIT}) waits its round trip on that one connection, so 1 / C is
 * d + q (q: PostgreSQL's time per statement and the worker's turn-around on the connection) and the
 * link bounds the ceiling wherever that is below what the worker sustains; the slope of 1 / C on d
 * is then the wire count over the pool's one connection. With the default pool (up to three
 * connections) the link carries three events' round trips at once and, at delays of a few ms, the
 * worker bounds the ceiling first: "not what bounds it".
 *
 * <p>Independent of Ceiling: the pool's concurrency is the number of PostgreSQL sessions that ran
 * an INSERT into events during the sweep (PostgreSQL's own statement log); the wire count is the
 * proxy's turns per OK-true answer, which {@link NostreamWireCountIT} checks against the same log.
 * The known answer is the fit's k against (wire count) / (sessions), TOST within ±0.5 round trips:
 * half a round trip, so that every other answer the test must tell it from lies outside: 0 ("not
 * what bounds it"), the default pool's three connections (1/3: the denominator swapped) and the
 * cache link's two turns per event (the links swapped). Each of those must not read CONSISTENT.
 *
 * <p>The slopes are timing and are a quiet-machine test. Beside two busy loops they did not hold,
 * even at delays of 40 to 100 ms chosen so that one connection allows only 25 to 10 events/s: the
 * relay, started from a build under {@code nice}, then reads 5.5 to 18 events/s, q moves by tens of
 * ms from cell to cell, and half the cells were left out by the A/B's rules (the generator, a JVM
 * under the same {@code nice}, behind its schedule). What holds beside load is in the test command:
 * the plan's rule in every cell, one INSERT session, the proxy's turns equal to its INSERTs, and no
 * cell above what one connection allows.
 */
class NostreamCeilingSlopeIT {
  @RegisterExtension
  static final SharedNostream NOSTREAM = SharedNostream.fromCi("The ceiling slope on nostream");

  static final Path PROFILE_DIR = SharedNostream.PROFILE_DIR;

  /** The cache link's wire turns per kind-1 event ({@link NostreamWireCountIT}). */
  static final double CACHE_TURNS_PER_EVENT = 2;

  /** The default pool's connections (the profile's {@code db_max_pool_size}). */
  static final int DEFAULT_POOL = 3;

  /** The equivalence margin around each declared count, round trips per event. */
  static final double MARGIN = 0.5;

  static final double ALPHA = 0.05;

  private static Map<String, String> env;

  @BeforeAll
  static void readTheSetupsPorts() throws Exception {
    env = NOSTREAM.env();
  }

  @TempDir Path dir;

  /**
   * In the test command, what holds beside load: pool of one, delays 40 and 100 ms x 2 repeats (the
   * fewest the sweep takes), each cell a ramp from 7/s doubling up to 56/s over 2 s windows (one to
   * three steps a cell). The plan declares the ramp and every cell follows it; PostgreSQL's log
   * shows the INSERTs over exactly one session; the proxy's turns are those INSERTs, one per event;
   * and no cell at d reads above 1000 / d events/s, which one connection cannot exceed (a loaded
   * machine only lowers the ceiling). Partners: the default pool's INSERTs over two or three
   * sessions, and a cell of it above that bound.
   */
  // Bounded, not sized: 129 s at a load of 12 (48 s the pool of one, the rest the default pool).
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void withAPoolOfOneTheRelayUsesOneSessionAndNoCellReadsAboveOneRoundTripPerEvent()
      throws Exception {
    CeilingRamp.Rule rule = new CeilingRamp.Rule(7, 2, 0.1, 56, 2);
    Path log = Path.of(env.get("NOSTREAM_PG_LOG"));
    long from = Files.size(log);
    DelaySweepReport one = sweep(dir.resolve("pool-1"), "1", List.of(40.0, 100.0), 2, rule);
    Set<String> sessions = insertSessions(log, from);
    System.err.println("NostreamCeilingSlopeIT: INSERT sessions, pool 1: " + sessions);

    // Declared before the first cell, and every cell's ramp by that rule: the reader applies it.
    assertThat(one.plan().pointRamp()).isNotNull();
    assertThat(one.plan().pointRamp().rule()).isEqualTo(rule);
    assertThat(DelaySweepFile.problems(one)).isEmpty();
    assertThat(one.cells()).hasSize(4).allSatisfy(c -> assertThat(c.pointRamp()).isNotNull());
    // The independent truth of the link's concurrency: PostgreSQL's log, not Ceiling.
    assertThat(sessions).as("pool of 1").hasSize(1);
    // The wire count the slope is held to is one turn per event, one INSERT: over every cell's
    // whole ramp (used or not: beside load a cell may be left out of the fit, e.g. for a generator
    // that fell behind, and its turns are still the relay's), each of which ends drained and
    // paused, the proxy's turns are PostgreSQL's INSERTs into events, plus at most a few that are
    // no statement (the pool's connection start-up: 10 allows three connections' worth). Not per
    // OK-true answer here: a saturated step's backlog is stored after the generator stopped
    // listening, so its INSERTs have no answer the client counted.
    long turns = one.cells().stream().mapToLong(c -> c.link().turns()).sum();
    long inserts = insertCount(log, from);
    System.err.printf(
        Locale.ROOT, "NostreamCeilingSlopeIT: %d turns, %d INSERTs into events%n", turns, inserts);
    assertThat(inserts).isPositive();
    assertThat(turns).isBetween(inserts, inserts + 10);
    // The physical bound with one connection: at most one event per round trip of d ms, within
    // the window's counting (10%, the ramp's tolerance).
    for (DelaySweepCell c : one.cells()) {
      if (c.ceilingPerS() != null) {
        assertThat(c.ceilingPerS())
            .as("pool 1 at %s ms", c.planned().addedDelayMs())
            .isLessThanOrEqualTo(1.1 * 1000 / c.planned().addedDelayMs());
      }
    }

    // The partners: the default pool, the same sweep at 70 and 100 ms, where a step of 14/s (one
    // event every 71 ms) already has a second INSERT start while one waits its round trip, and a
    // worker slowed by load only bunches them more: PostgreSQL logs two or three sessions. With
    // them the one-connection bound no longer holds: three round trips share each d, and a cell
    // reads above 1000 / d (at a load of 12: 28 to 39/s, about three connections' 30 and 43/s,
    // against one connection's 10 and 14/s).
    from = Files.size(log);
    DelaySweepReport three =
        sweep(dir.resolve("pool-3"), Integer.toString(DEFAULT_POOL), List.of(70.0, 100.0), 2, rule);
    Set<String> pooled = insertSessions(log, from);
    System.err.println("NostreamCeilingSlopeIT: INSERT sessions, default pool: " + pooled);
    assertThat(pooled).as("default pool of 3").hasSizeBetween(2, DEFAULT_POOL);
    assertThat(three.cells())
        .anySatisfy(
            c ->
                assertThat(c.ceilingPerS())
                    .isNotNull()
                    .isGreaterThan(1.1 * 1000 / c.planned().addedDelayMs()));
  }

  /**
   * The known answer by the clock, a quiet-machine test. Pool of one on 3, 5 and 7 ms (where one
   * connection allows at most 333/s, below the worker's 400/s, so the link bounds every cell): k
   * against the proxy's wire count over the INSERT sessions PostgreSQL logged, CONSISTENT within
   * ±0.5; partners, none CONSISTENT: the denominator swapped (the default pool's three
   * connections), the links swapped (the cache link's two turns per event) and 0. The default pool
   * on 0, 2 and 4 ms (three connections allow about 750/s at 4 ms, twice the worker's ceiling): two
   * or three sessions, k CONSISTENT with 0, "not what bounds it"; its partner, the pool of one's
   * answer (the wire count over one connection), is not. Not yet run on a quiet machine. Beside
   * other builds (load 6.1 falling to 2.7) it failed: the pool of one read k = 1.02 [0.00, 2.03],
   * INCONCLUSIVE against 1 ± 0.5 (its 3 ms cells read 93 and 170/s as the load moved), and the
   * default pool k = -0.29 [-1.74, 1.16], not established (four of nine cells left out by the A/B's
   * rules); 296 s.
   */
  @Test
  @Tag("quiet-machine")
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void onAQuietMachineTheCeilingSlopeIsTheWireCountOverThePoolOrNone() throws Exception {
    Path log = Path.of(env.get("NOSTREAM_PG_LOG"));
    long from = Files.size(log);
    DelaySweepReport one =
        sweep(
            dir.resolve("pool-1"),
            "1",
            List.of(3.0, 5.0, 7.0),
            3,
            new CeilingRamp.Rule(60, 1.25, 0.1, 600, 2));
    Set<String> oneSessions = insertSessions(log, from);
    from = Files.size(log);
    DelaySweepReport three =
        sweep(
            dir.resolve("pool-3"),
            Integer.toString(DEFAULT_POOL),
            List.of(0.0, 2.0, 4.0),
            3,
            new CeilingRamp.Rule(150, 1.25, 0.1, 900, 2));
    Set<String> threeSessions = insertSessions(log, from);
    System.err.println(
        "NostreamCeilingSlopeIT: INSERT sessions, pool 1: "
            + oneSessions
            + "; default pool: "
            + threeSessions);
    assertThat(oneSessions).as("pool of 1").hasSize(1);
    assertThat(threeSessions).as("default pool of 3").hasSizeBetween(2, DEFAULT_POOL);

    assertThat(one.fit()).as(one.fitProblem()).isNotNull();
    assertThat(one.wireTurnsPerOkTrue()).isNotNull();
    double count = one.wireTurnsPerOkTrue() / oneSessions.size();
    assertThat(Sensitivity.againstCount(one.fit(), count, MARGIN, ALPHA).reading())
        .as("k %s against %s: %s", k(one), count, one.answer())
        .isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(
            Sensitivity.againstCount(
                    one.fit(), one.wireTurnsPerOkTrue() / DEFAULT_POOL, MARGIN, ALPHA)
                .reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
    assertThat(Sensitivity.againstCount(one.fit(), CACHE_TURNS_PER_EVENT, MARGIN, ALPHA).reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
    assertThat(Sensitivity.againstCount(one.fit(), 0, MARGIN, ALPHA).reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);

    assertThat(three.fit()).as(three.fitProblem()).isNotNull();
    assertThat(Sensitivity.againstCount(three.fit(), 0, MARGIN, ALPHA).reading())
        .as("k %s: %s", k(three), three.answer())
        .isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(three.wireTurnsPerOkTrue()).isNotNull();
    assertThat(
            Sensitivity.againstCount(three.fit(), three.wireTurnsPerOkTrue(), MARGIN, ALPHA)
                .reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
  }

  private static String k(DelaySweepReport r) {
    if (r.fit() == null) {
      return "none";
    }
    var k = r.fit().roundTripsPerEvent();
    return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", k.value(), k.lower(), k.upper());
  }

  /**
   * One sweep of {@code db} with nostream's pool at {@code pool} connections, every cell a ramp.
   */
  private static DelaySweepReport sweep(
      Path out, String pool, List<Double> delays, int repeats, CeilingRamp.Rule rule)
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
            .duration(Duration.ofSeconds(Math.round(rule.windowS())))
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
    System.err.println(
        "NostreamCeilingSlopeIT (pool "
            + pool
            + "): "
            + s.answer()
            + "; wire turns per OK-true "
            + s.wireTurnsPerOkTrue()
            + (s.fit() == null ? "" : "; k " + k(s)));
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

  /** How many INSERTs into events PostgreSQL logged from byte {@code from} on. */
  private static long insertCount(Path log, long from) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      f.seek(from);
      byte[] rest = new byte[(int) (f.length() - from)];
      f.readFully(rest);
      return new String(rest, StandardCharsets.UTF_8)
          .lines()
          .filter(line -> INSERT.matcher(line).find())
          .count();
    }
  }

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
