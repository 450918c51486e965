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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ceiling slope on nostream, a relay that collapses above its ceiling: each cell of the sweep
 * of its PostgreSQL link {@code db} is a ramp at its delay ({@code DelaySweepPlan.PointRamp}), the
 * cell's ceiling the highest OK-true rate a step sustained.
 *
 * <p>With one worker and a pool of one database connection, every accepted event's one INSERT (one
 * wire turn: {@link NostreamWireCountIT}) waits its round trip on that one connection, so 1 / C is
 * at least d + q (q: PostgreSQL's own time per statement). At delays of 40 to 100 ms that bound is
 * 25 to 10 events/s, below what nostream's one worker sustains even beside two busy loops (tens of
 * events/s; NostreamAutoOffersIT's ramp), so the link, not the worker, bounds every cell, and the
 * slope of 1 / C on d is the wire count over the pool's one connection. Large delays are what make
 * this hold beside load: a loaded machine slows the worker and PostgreSQL (it moves q and the
 * worker's ceiling), not the proxy's added delay, and a 60 ms span dwarfs q's scatter.
 *
 * <p>Independent of Ceiling: the pool's concurrency is the number of PostgreSQL sessions that ran
 * an INSERT into events during the sweep (PostgreSQL's own statement log); the wire count is the
 * proxy's turns per OK-true answer, which {@link NostreamWireCountIT} checks against the same log.
 * The known answer is the fit's k against (wire count) / (sessions), TOST within ±0.5 round trips:
 * half a round trip, so that every other answer the test must tell it from lies outside: 0 ("not
 * what bounds it"), the default pool's three connections (1/3: the denominator swapped) and the
 * cache link's two turns per event (the links swapped). Each of those must not read CONSISTENT.
 *
 * <p>With the default pool (up to three connections) the link carries three events' round trips at
 * once and, at delays of a few ms, the worker bounds the ceiling first: "not what bounds it". That
 * reading rests on the worker's ceiling staying put from cell to cell, which a loaded machine does
 * not give (beside two busy loops nostream's ceiling moved from 67.5/s to 101/s between one ramp
 * and the next), so it is a quiet-machine test; its partner is the pool of one's answer.
 */
class NostreamCeilingSlopeIT {
  static final Path PROFILE_DIR = NostreamWireCountIT.PROFILE_DIR;

  /** The cache link's wire turns per kind-1 event ({@link NostreamWireCountIT}). */
  static final double CACHE_TURNS_PER_EVENT = 2;

  /** The default pool's connections (the profile's {@code db_max_pool_size}). */
  static final int DEFAULT_POOL = 3;

  /** The equivalence margin around each declared count, round trips per event. */
  static final double MARGIN = 0.5;

  static final double ALPHA = 0.05;

  private static Map<String, String> env;
  private static SharedNostream held;

  @TempDir Path dir;

  @BeforeAll
  static void nostreamIsSetUp() throws Exception {
    String status = System.getenv("CEILING_NOSTREAM_STATUS");
    String why =
        status == null || status.isBlank()
            ? "CEILING_NOSTREAM_STATUS is not set (.ci/run sets it)"
            : NostreamWireCountIT.awaitSetup(Path.of(status));
    if (why != null) {
      System.err.println(
          "\n*** SKIPPING NostreamCeilingSlopeIT: "
              + why
              + ". The ceiling slope on nostream did NOT run. ***\n");
      Assumptions.abort(why);
    }
    Path work = Path.of(System.getenv().getOrDefault("CEILING_NOSTREAM_DIR", ""));
    env = NostreamWireCountIT.readEnv(work.resolve("ceiling.env"));
    // One test class at a time on the shared setup, across the build's JVMs (SharedNostream): the
    // sessions are read from the statement log another class would write into.
    held = SharedNostream.hold(work);
  }

  @AfterAll
  static void releaseTheSharedSetup() throws Exception {
    if (held != null) {
      held.close();
      held = null;
    }
  }

  /**
   * Pool of one, delays 40, 70 and 100 ms x 2 repeats, each cell a ramp from 7/s doubling up to
   * 56/s over 2 s windows (two to four steps a cell: a saturated step reads the link's own rate,
   * since a queue on one connection answers at that rate rather than collapsing).
   */
  // Bounded, not sized: six cells of two to four 4 s steps and a relay start, about two minutes.
  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void withAPoolOfOneTheCeilingSlopeIsTheWireCountOverOneConnection() throws Exception {
    CeilingRamp.Rule rule = new CeilingRamp.Rule(7, 2, 0.1, 56, 2);
    Path log = Path.of(env.get("NOSTREAM_PG_LOG"));
    long from = Files.size(log);
    DelaySweepReport one = sweep(dir.resolve("pool-1"), "1", List.of(40.0, 70.0, 100.0), 2, rule);
    Set<String> sessions = insertSessions(log, from);
    System.err.println("NostreamCeilingSlopeIT: INSERT sessions, pool 1: " + sessions);

    // Declared before the first cell, and every cell's ramp by that rule: the reader applies it.
    assertThat(one.plan().pointRamp()).isNotNull();
    assertThat(one.plan().pointRamp().rule()).isEqualTo(rule);
    assertThat(DelaySweepFile.problems(one)).isEmpty();
    assertThat(one.cells()).hasSize(6).allSatisfy(c -> assertThat(c.pointRamp()).isNotNull());
    // The independent truth of the link's concurrency: PostgreSQL's log, not Ceiling.
    assertThat(sessions).as("pool of 1").hasSize(1);
    // The physical bound with one connection: at most one event per round trip of d ms, within
    // the window's counting (10%, the ramp's tolerance).
    for (DelaySweepCell c : one.cells()) {
      if (c.ceilingPerS() != null) {
        assertThat(c.ceilingPerS())
            .as("pool 1 at %s ms", c.planned().addedDelayMs())
            .isLessThanOrEqualTo(1.1 * 1000 / c.planned().addedDelayMs());
      }
    }

    assertThat(one.wireTurnsPerOkTrue()).as("the proxy's turns per OK-true answer").isNotNull();
    assertThat(one.fit()).as(one.fitProblem()).isNotNull();
    double count = one.wireTurnsPerOkTrue() / sessions.size();
    Tost.Reading known = Sensitivity.againstCount(one.fit(), count, MARGIN, ALPHA).reading();
    assertThat(known)
        .as(
            "k %s against the wire count %s over %s session(s): %s",
            k(one), one.wireTurnsPerOkTrue(), sessions.size(), one.answer())
        .isEqualTo(Tost.Reading.CONSISTENT);
    // Partners, each must not read CONSISTENT: the denominator swapped (the default pool's three
    // connections), the links swapped (the cache link's two turns per event), and "not what bounds
    // it" (the default pool's answer).
    assertThat(
            Sensitivity.againstCount(
                    one.fit(), one.wireTurnsPerOkTrue() / DEFAULT_POOL, MARGIN, ALPHA)
                .reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
    assertThat(Sensitivity.againstCount(one.fit(), CACHE_TURNS_PER_EVENT, MARGIN, ALPHA).reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
    assertThat(Sensitivity.againstCount(one.fit(), 0, MARGIN, ALPHA).reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
  }

  /**
   * The default pool on 0, 2 and 4 ms (three connections allow about 750/s at 4 ms, about twice the
   * worker's 400/s on a quiet machine), its ceiling slope CONSISTENT with 0: "not what bounds it";
   * two or three INSERT sessions in PostgreSQL's log. Partner: the pool of one's answer, the wire
   * count over one connection, is not CONSISTENT with it.
   */
  @Test
  @Tag("quiet-machine")
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void onAQuietMachineTheDefaultPoolIsNotWhatBoundsTheCeiling() throws Exception {
    Path log = Path.of(env.get("NOSTREAM_PG_LOG"));
    long from = Files.size(log);
    DelaySweepReport three =
        sweep(
            dir.resolve("pool-3"),
            Integer.toString(DEFAULT_POOL),
            List.of(0.0, 2.0, 4.0),
            2,
            new CeilingRamp.Rule(150, 1.25, 0.1, 900, 2));
    Set<String> sessions = insertSessions(log, from);
    System.err.println("NostreamCeilingSlopeIT: INSERT sessions, default pool: " + sessions);
    assertThat(sessions).as("default pool of 3").hasSizeBetween(2, DEFAULT_POOL);
    assertThat(three.fit()).as(three.fitProblem()).isNotNull();
    assertThat(Sensitivity.againstCount(three.fit(), 0, MARGIN, ALPHA).reading())
        .as("k %s: %s", k(three), three.answer())
        .isEqualTo(Tost.Reading.CONSISTENT);
    // Partner: the pool of one's answer.
    assertThat(three.wireTurnsPerOkTrue()).isNotNull();
    assertThat(
            Sensitivity.againstCount(three.fit(), three.wireTurnsPerOkTrue(), MARGIN, ALPHA)
                .reading())
        .isNotEqualTo(Tost.Reading.CONSISTENT);
  }

  private static String k(DelaySweepReport r) {
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
