package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.LinkHealth;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.core.testing.SharedNostream;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentProgress;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.ArmStats;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.RateRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A link outage in the middle of an A/B on nostream, a relay this project did not write. Two runs
 * of the same A/B, each arm with its own outage plan, serve the four cases. In the first, Redis
 * (the treatment arm's {@code cache} link) is stopped by the pid its setup recorded after the
 * treatment arm's first cell and started again, with the setup's own command, after its third; and
 * PostgreSQL ({@code db}) is stopped the same way in the control arm, with the setup's own {@code
 * pg_ctl}. The cells that ran during each outage are excluded for {@code LINK_FAILED} naming that
 * arm's link and never the other; each half-run holds every cell; the verdict is not decided by
 * them (each arm's n and mean at every rate are recomputed here from the cells it kept); the drain
 * after an outage cell names the cell it excludes. In the second run Redis is stopped after the
 * treatment arm's first cell and started again before its second (the callback runs between cells,
 * and returns once Redis lists the relay's connection again), and the control arm has no outage at
 * all: nothing is excluded for a link, no reason names one, and every cell of both arms records
 * both links healthy. That is the partner: the same A/B with no link down during any cell has no
 * {@code LINK_FAILED} at all and is judged as before. These offers never separate the arms (the
 * rules never refuse at them), so every run here, outage or not, is not established, for the
 * separation test's reasons only.
 *
 * <p>Why two runs and not four: an A/B runs its arms one after the other, each on its own relay, so
 * an outage in one arm cannot reach the other's cells, and each arm's assertions read that arm's
 * cells only. The control arm (no rate-limit rules) sends Redis nothing, so its outage is
 * PostgreSQL's. Each run starts nostream twice (once per arm) and measures eight cells; one run per
 * case made twice the starts and the cells.
 *
 * <p>The truth that Redis was down is established outside Ceiling: the process is gone (its pid no
 * longer names a live redis-server) before the next cell starts, and a fresh one is up (its pid
 * file names a live redis-server) before the cell after; for PostgreSQL, {@code pg_ctl status}
 * exits 3 (not running) after the stop, and its own server log records the shutdown and the
 * restart. Needs the setup's work directory in {@code CEILING_NOSTREAM_DIR} and its exit code in
 * {@code CEILING_NOSTREAM_STATUS}, as {@link NostreamWireCountIT}; skips loudly without them.
 */
class NostreamLinkOutageIT {
  @RegisterExtension
  static final SharedNostream NOSTREAM = SharedNostream.fromCi("The link outage on nostream");

  private static Map<String, String> env;

  @BeforeAll
  static void readTheSetupsPorts() throws Exception {
    env = NOSTREAM.env();
  }

  @TempDir static Path dir;

  /** The run with an outage during cells in each arm, made by the first case that reads it. */
  private static Run during;

  /** The run with Redis down between two treatment cells only, made likewise. */
  private static Run between;

  /** A run and its outage plan; a run that threw is rethrown by every case that reads it. */
  private record Run(ExperimentResult result, Outage outage, Throwable failure) {
    ExperimentResult get() throws Exception {
      if (failure instanceof Exception e) {
        throw e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      return result;
    }
  }

  /** The run of {@code outage}, or what it threw, so that a failed run is not run again. */
  private static Run attempt(Outage outage, String name) {
    try {
      return new Run(run(outage, name), outage, null);
    } catch (Exception | AssertionError e) {
      return new Run(null, outage, e);
    }
  }

  /** Redis down in the treatment arm's cells 2 and 3, PostgreSQL down in the control arm's. */
  private static synchronized Run during() throws Exception {
    if (during == null) {
      Outage outage = new Outage(Map.of("rules", Service.REDIS, "none", Service.POSTGRES));
      during = attempt(outage, "during");
      // Whatever failed, the shared PostgreSQL and Redis are left running for the tests after.
      ArmOutage pg = outage.of("none");
      if (pg.stopping && !pg.restarted && pgCtl("status") != 0) {
        startPostgres();
      }
      ArmOutage redis = outage.of("rules");
      if (redis.stoppedPid != null && !redis.restarted) {
        startRedis();
      }
    }
    return during;
  }

  /** Redis stopped and started again between the treatment arm's first two cells; no other. */
  private static synchronized Run between() {
    if (between == null) {
      between = attempt(new Outage(Map.of("rules", Service.REDIS_BETWEEN_CELLS)), "between");
    }
    return between;
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void redisStoppedDuringTheTreatmentArmExcludesItsCellsForTheCacheLink() throws Exception {
    ExperimentResult r = during().get();
    ArmOutage outage = during().outage().of("rules");
    assertThat(outage.stoppedPid).as("Redis was stopped during the treatment arm").isNotNull();
    assertThat(outage.restarted).as("and started again").isTrue();

    HalfRun treatment = half(r, "rules");
    assertThat(treatment.complete()).as("the half-run holds every cell measured").isTrue();
    assertThat(treatment.cells()).hasSize(4);
    List<ExcludedCell> linkFailed = linkFailed(r, "cache");
    // The second and third treatment cells ran with Redis gone from start to end.
    assertThat(linkFailed)
        .extracting(e -> e.cell().arm() + "#" + e.cell().sequence())
        .contains("rules#" + outage.during.get(0), "rules#" + outage.during.get(1));
    for (ExcludedCell e : linkFailed) {
      assertThat(e.cell().arm()).as("only the arm with the Redis outage").isEqualTo("rules");
      assertThat(linkFailedMessages(e))
          .allSatisfy(m -> assertThat(m).doesNotContain("link 'db'"))
          .anySatisfy(m -> assertThat(m).startsWith("link 'cache': ").contains("into the cell"));
    }
    for (Cell c : treatment.cells()) {
      if (outage.during.contains(c.sequence())) {
        LinkHealth cache = link(c, "cache");
        assertThat(cache.failed()).as("cell %d's cache link", c.sequence()).isTrue();
        assertThat(cache.refused() + cache.dropped() + cache.stalls()).isPositive();
      }
    }
    assertNotDecidedByExcludedCells(r);
    assertDrainWarningsNameTheCellTheyExclude(r, "rules", outage.warnings);
    assertThat(outage.warnings)
        .as("the drain after an outage cell names the cell it excludes")
        .anyMatch(w -> w.contains("still had no OK") && w.contains("(DRAIN_TIMEOUT)"));
    assertJudgedNotForged(r);
    assertEachArmNamesOnlyItsOwnLink(r);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void postgresStoppedDuringTheControlArmExcludesItsCellsForTheDbLink() throws Exception {
    ExperimentResult r = during().get();
    ArmOutage outage = during().outage().of("none");
    assertThat(outage.stoppedPid).as("PostgreSQL was stopped during the control arm").isNotNull();
    assertThat(outage.downWhileStopped)
        .as("pg_ctl status said it was not running (exit 3) before the next cell")
        .isEqualTo(3);
    assertThat(outage.restarted).as("and started again").isTrue();
    // PostgreSQL's own log says it shut down and came back, outside Ceiling.
    String log = Files.readString(Path.of(env.get("NOSTREAM_PG_LOG")));
    assertThat(log.substring(outage.logOffsetAtStop))
        .contains("database system is shut down")
        .contains("database system is ready to accept connections");

    HalfRun control = half(r, "none");
    assertThat(control.complete()).as("the half-run holds every cell measured").isTrue();
    assertThat(control.cells()).hasSize(4);
    List<ExcludedCell> linkFailed = linkFailed(r, "db");
    assertThat(linkFailed)
        .extracting(e -> e.cell().arm() + "#" + e.cell().sequence())
        .contains("none#" + outage.during.get(0), "none#" + outage.during.get(1));
    for (ExcludedCell e : linkFailed) {
      assertThat(e.cell().arm()).as("only the arm with the PostgreSQL outage").isEqualTo("none");
      assertThat(linkFailedMessages(e))
          .allSatisfy(m -> assertThat(m).doesNotContain("link 'cache'"))
          .anySatisfy(m -> assertThat(m).startsWith("link 'db': ").contains("into the cell"));
    }
    for (Cell c : control.cells()) {
      if (outage.during.contains(c.sequence())) {
        LinkHealth db = link(c, "db");
        assertThat(db.failed()).as("cell %d's db link", c.sequence()).isTrue();
        assertThat(db.refused() + db.dropped() + db.stalls()).isPositive();
      }
    }
    assertNotDecidedByExcludedCells(r);
    assertDrainWarningsNameTheCellTheyExclude(r, "none", outage.warnings);
    assertThat(outage.warnings)
        .as("the drain after an outage cell names the cell it excludes")
        .anyMatch(w -> w.contains("still had no OK") && w.contains("(DRAIN_TIMEOUT)"));
    assertJudgedNotForged(r);
    assertEachArmNamesOnlyItsOwnLink(r);
  }

  /**
   * What the report tells (the answer's next step quotes each LINK_FAILED reason): the cache link
   * in the treatment arm's exclusions, the db link in the control arm's, never the other way.
   */
  private static void assertEachArmNamesOnlyItsOwnLink(ExperimentResult r) {
    assertThat(r.report().verdict().excluded())
        .flatExtracting(ExcludedCell::reasons)
        .extracting(CellProblem::message)
        .anyMatch(m -> m.startsWith("link 'db': "))
        .anyMatch(m -> m.startsWith("link 'cache': "));
    for (ExcludedCell e : r.report().verdict().excluded()) {
      String other = e.cell().arm().equals("none") ? "link 'cache': " : "link 'db': ";
      assertThat(e.reasons())
          .extracting(CellProblem::message)
          .as("%s#%d", e.cell().arm(), e.cell().sequence())
          .noneMatch(m -> m.startsWith(other));
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void redisStoppedAndStartedAgainBetweenCellsExcludesNothing() throws Exception {
    ExperimentResult r = between().get();
    ArmOutage outage = between().outage().of("rules");
    assertThat(outage.stoppedPid).as("Redis was stopped between two cells").isNotNull();
    assertThat(outage.restarted).as("and started again before the next").isTrue();
    assertThat(outage.relayReconnected)
        .as("Redis's CLIENT LIST showed a client again before the next cell")
        .isTrue();
    HalfRun treatment = half(r, "rules");
    assertThat(treatment.complete()).isTrue();
    for (Cell c : treatment.cells()) {
      assertThat(c.environment().failedLinks()).as("rules cell %d's links", c.sequence()).isEmpty();
    }
    assertThat(linkFailed(r)).isEmpty();
    assertNotDecidedByExcludedCells(r);
    assertJudgedNotForged(r);
    // No reason of any exclusion names a link, so the answer (which quotes them) names none.
    assertThat(r.report().verdict().excluded())
        .flatExtracting(ExcludedCell::reasons)
        .extracting(CellProblem::message)
        .noneMatch(m -> m.contains("link '"));
  }

  /**
   * The partner: no link is down during any cell of the second run (the control arm has no outage
   * at all, the treatment arm's Redis was back before its second cell), so every cell of both arms
   * records both links healthy and no exclusion is for a link.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void partnerWithNoLinkDownDuringACellNoCellHasALinkFailure() throws Exception {
    ExperimentResult r = between().get();
    for (String arm : List.of("rules", "none")) {
      HalfRun h = half(r, arm);
      assertThat(h.complete()).isTrue();
      assertThat(h.cells()).hasSize(4);
      for (Cell c : h.cells()) {
        assertThat(c.environment().links())
            .as("%s cell %d records both links", arm, c.sequence())
            .extracting(LinkHealth::link)
            .containsExactly("db", "cache");
        assertThat(c.environment().failedLinks()).isEmpty();
      }
    }
    assertThat(r.report().verdict().excluded())
        .flatExtracting(ExcludedCell::reasons)
        .extracting(CellProblem::kind)
        .doesNotContain(ProblemKind.LINK_FAILED);
    assertNotDecidedByExcludedCells(r);
    // As before: the rules arm never refuses at these offers, so the A/B reads what it reads on
    // nostream without an outage, not established, for want of a separation (or, beside busy
    // loops, of steady cells), and never for a link, a fatal cell or a half-run cut short.
    assertJudgedNotForged(r);
  }

  /**
   * The run is judged on the contract's own terms: not established (these offers never separate the
   * arms, so a pass could only be forged), and every failure is the separation test's
   * (NOT_SEPARATED, or NO_COMPARABLE_RATE when too few cells were evidence), never an incomplete
   * half-run, a skipped arm or a fatal cell.
   */
  private static void assertJudgedNotForged(ExperimentResult r) {
    assertThat(r.outcome()).isEqualTo(dev.ceiling.experiment.Outcome.NOT_ESTABLISHED);
    assertThat(r.report().verdict().failures())
        .isNotEmpty()
        .extracting(dev.ceiling.verdict.Failure::kind)
        .allMatch(
            k ->
                k == dev.ceiling.verdict.FailureKind.NOT_SEPARATED
                    || k == dev.ceiling.verdict.FailureKind.NO_COMPARABLE_RATE);
  }

  private static ExperimentResult run(Outage outage, String name) throws Exception {
    ExperimentResult r = runOnly(outage, dir.resolve(name));
    // Kept in the surefire output, so a failure beside busy loops can be read afterwards.
    if (r.report() != null) {
      var v = r.report().verdict();
      System.out.println(
          "outcome "
              + r.outcome()
              + " label "
              + v.label()
              + " comparable "
              + v.comparableRates()
              + " failures "
              + v.failures()
              + " rates "
              + v.rates()
              + " excluded "
              + v.excluded().stream()
                  .map(e -> e.cell().arm() + "#" + e.cell().sequence() + " " + e.reasons())
                  .toList()
              + " warnings "
              + outage.warnings());
    } else {
      System.out.println("outcome " + r.outcome() + " problems " + r.problems());
    }
    return r;
  }

  private static ExperimentResult runOnly(Outage outage, Path dir) throws Exception {
    RelayProfile profile = RelayProfile.load(SharedNostream.PROFILE_DIR.resolve("profile.json"));
    return Experiment.builder()
        .profile(profile)
        .relayOverrides(
            Map.of(
                "nostream_dir", env.get("NOSTREAM_DIR"),
                "pg_port", env.get("NOSTREAM_PG_PORT"),
                "redis_port", env.get("NOSTREAM_REDIS_PORT"),
                "port", Integer.toString(FreePorts.one()),
                "worker_count", "1"))
        .rates(20, 40)
        .duration(Duration.ofSeconds(3))
        .repeats(2)
        .sweepOptions(
            SweepOptions.defaults(dir.resolve("journal.jsonl"))
                .withWarmup(Duration.ofMillis(500))
                .withGrace(Duration.ofSeconds(1))
                .withDrainTimeout(Duration.ofSeconds(3))
                .withSendLagBound(Duration.ofMillis(250)))
        .progress(outage)
        .outDir(dir)
        .installShutdownHook(false)
        .run();
  }

  /**
   * The verdict is not decided by the cells it excluded: at every rate each arm's statistic (its n
   * and its mean accepted/offered) is recomputed here from the half-run's cells less the excluded
   * ones, so an excluded cell (one whose link failed) that entered the separation test would change
   * one or the other.
   */
  private static void assertNotDecidedByExcludedCells(ExperimentResult r) {
    for (RateRow row : r.report().verdict().rates()) {
      for (boolean treatment : new boolean[] {true, false}) {
        HalfRun h = treatment ? r.report().treatment() : r.report().control();
        java.util.Set<Integer> excluded =
            r.report().verdict().excluded().stream()
                .filter(e -> e.cell().arm().equals(h.arm()))
                .map(e -> e.cell().sequence())
                .collect(java.util.stream.Collectors.toSet());
        double[] used =
            h.cells().stream()
                .filter(c -> c.offeredPerS() == row.offeredPerS() && !c.twoCommunity())
                .filter(c -> !excluded.contains(c.sequence()))
                .mapToDouble(Cell::acceptedOverOffered)
                .toArray();
        ArmStats stats = treatment ? row.treatment() : row.control();
        assertThat(stats.n()).as("%s at %s/s", h.arm(), row.offeredPerS()).isEqualTo(used.length);
        if (used.length > 0) {
          assertThat(stats.mean())
              .as("%s at %s/s", h.arm(), row.offeredPerS())
              .isCloseTo(
                  java.util.Arrays.stream(used).average().orElseThrow(),
                  org.assertj.core.data.Offset.offset(1e-9));
        }
      }
    }
  }

  /**
   * A drain of {@code arm} that gave up with events owed names the cell it excludes, and that cell
   * is excluded for DRAIN_TIMEOUT in the same arm; or it says that nothing is excluded, the arm
   * having no further cell (what runs next runs on a fresh relay).
   */
  private static void assertDrainWarningsNameTheCellTheyExclude(
      ExperimentResult r, String arm, List<String> warnings) {
    java.util.regex.Pattern names =
        java.util.regex.Pattern.compile(
            "cell (\\d+) starts on that backlog and is excluded \\(DRAIN_TIMEOUT\\)");
    for (String w : warnings) {
      if (!w.contains("still had no OK")) {
        continue;
      }
      java.util.regex.Matcher m = names.matcher(w);
      if (m.find()) {
        int next = Integer.parseInt(m.group(1));
        assertThat(r.report().verdict().excluded())
            .as(w)
            .anyMatch(
                e ->
                    e.cell().arm().equals(arm)
                        && e.cell().sequence() == next
                        && e.reasons().stream()
                            .anyMatch(p -> p.kind() == ProblemKind.DRAIN_TIMEOUT));
      } else {
        assertThat(w).contains("has no further cell, so nothing is excluded for it");
      }
    }
  }

  /** The cells excluded for LINK_FAILED. */
  private static List<ExcludedCell> linkFailed(ExperimentResult r) {
    return r.report().verdict().excluded().stream()
        .filter(e -> !linkFailedMessages(e).isEmpty())
        .toList();
  }

  /** The cells excluded for LINK_FAILED with a reason naming {@code link}. */
  private static List<ExcludedCell> linkFailed(ExperimentResult r, String link) {
    return linkFailed(r).stream()
        .filter(e -> linkFailedMessages(e).stream().anyMatch(m -> m.contains("link '" + link)))
        .toList();
  }

  /** The messages of a cell's LINK_FAILED reasons. */
  private static List<String> linkFailedMessages(ExcludedCell e) {
    return e.reasons().stream()
        .filter(p -> p.kind() == ProblemKind.LINK_FAILED)
        .map(CellProblem::message)
        .toList();
  }

  private static HalfRun half(ExperimentResult r, String arm) {
    return r.report().treatment().arm().equals(arm) ? r.report().treatment() : r.report().control();
  }

  private static LinkHealth link(Cell c, String name) {
    return c.environment().links().stream()
        .filter(l -> l.link().equals(name))
        .findFirst()
        .orElseThrow();
  }

  /** What an outage stops. */
  private enum Service {
    /** Redis, from after the arm's first cell to after its third. */
    REDIS,
    /** PostgreSQL, the same cells. */
    POSTGRES,
    /** Redis, stopped after the arm's first cell and started again before its second. */
    REDIS_BETWEEN_CELLS
  }

  /** What one arm's outage did, as its callbacks saw it. */
  private static final class ArmOutage {
    final Service service;
    volatile Long stoppedPid;
    volatile boolean restarted;
    volatile Integer downWhileStopped;
    volatile int logOffsetAtStop;
    volatile boolean relayReconnected;
    volatile boolean stopping;
    final List<Integer> during = new CopyOnWriteArrayList<>();
    final List<String> warnings = new CopyOnWriteArrayList<>();

    ArmOutage(Service service) {
      this.service = service;
    }
  }

  /**
   * Stops each arm's service after that arm's first cell and starts it after its third, or before
   * its second for {@link Service#REDIS_BETWEEN_CELLS}; an arm without a service has no outage. The
   * callback runs on the runner's thread between cells, so no cell runs while it does, and the cell
   * count it gets is the arm's own. Warnings are kept per arm, as each arm's drains give them.
   */
  private static final class Outage implements ExperimentProgress {
    private final Map<String, ArmOutage> arms = new HashMap<>();
    private final List<String> beforeAnyArm = new CopyOnWriteArrayList<>();
    private volatile String current;

    Outage(Map<String, Service> services) {
      services.forEach((arm, service) -> arms.put(arm, new ArmOutage(service)));
      arms.putIfAbsent("rules", new ArmOutage(null));
      arms.putIfAbsent("none", new ArmOutage(null));
    }

    ArmOutage of(String arm) {
      return arms.get(arm);
    }

    /** Every arm's warnings, for the run's printed figures. */
    Map<String, List<String>> warnings() {
      Map<String, List<String>> out = new java.util.TreeMap<>();
      arms.forEach((arm, o) -> out.put(arm, o.warnings));
      out.put("before any arm", beforeAnyArm);
      return out;
    }

    @Override
    public void rigUp(String arm, RigDescriptor rig) {
      current = arm;
    }

    @Override
    public void warning(String message) {
      ArmOutage o = current == null ? null : arms.get(current);
      (o == null ? beforeAnyArm : o.warnings).add(message);
    }

    @Override
    public void cellFinished(Cell cell, int done, int planned) {
      ArmOutage o = current == null ? null : arms.get(current);
      if (o == null || o.service == null) {
        return;
      }
      try {
        if (o.service == Service.REDIS_BETWEEN_CELLS) {
          if (done == 1) {
            o.stoppedPid = stopRedis();
            startRedis();
            o.restarted = true;
            o.relayReconnected = redisHasAClient();
          }
          return;
        }
        if (done == 1) {
          if (o.service == Service.REDIS) {
            o.stoppedPid = stopRedis();
          } else {
            o.logOffsetAtStop = Files.readString(Path.of(env.get("NOSTREAM_PG_LOG"))).length();
            o.stopping = true;
            o.stoppedPid = stopPostgres();
            o.downWhileStopped = pgCtl("status");
          }
        } else if (done == 2) {
          o.during.add(cell.sequence());
        } else if (done == 3) {
          o.during.add(cell.sequence());
          if (o.service == Service.REDIS) {
            startRedis();
          } else {
            startPostgres();
          }
          o.restarted = true;
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * Whether Redis lists a client besides the asking redis-cli within 20 s: the relay (through its
   * proxy) reconnected, so the next cell starts on a working link.
   */
  private static boolean redisHasAClient() throws Exception {
    for (int i = 0; i < 200; i++) {
      Process p =
          new ProcessBuilder(
                  "redis-cli",
                  "-h",
                  "127.0.0.1",
                  "-p",
                  env.get("NOSTREAM_REDIS_PORT"),
                  "CLIENT",
                  "LIST")
              .redirectErrorStream(true)
              .start();
      String out =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (p.waitFor(10, TimeUnit.SECONDS)
          && out.lines().filter(l -> l.startsWith("id=")).count() > 1) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  /** The postmaster's pid, from the first line of its own pid file. */
  private static long postmasterPid() throws Exception {
    return Long.parseLong(
        Files.readAllLines(Path.of(env.get("NOSTREAM_PG_DATA"), "postmaster.pid")).get(0).trim());
  }

  /** Stops the setup's PostgreSQL with its own pg_ctl (fast mode), and returns the pid it had. */
  private static long stopPostgres() throws Exception {
    long pid = postmasterPid();
    assertThat(pgCtl("stop", "-m", "fast", "-w", "-t", "60")).isZero();
    // pg_ctl returns once the pid file is gone; the process itself may take a moment to exit.
    for (int i = 0;
        i < 300 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        i++) {
      Thread.sleep(100);
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    return pid;
  }

  /** Starts PostgreSQL again with the setup's own options (docs/profiles/nostream/setup). */
  private static void startPostgres() throws Exception {
    String data = env.get("NOSTREAM_PG_DATA");
    String sock = Path.of(data).getParent().toString();
    assertThat(
            pgCtl(
                "start",
                "-l",
                env.get("NOSTREAM_PG_LOG"),
                "-w",
                "-t",
                "120",
                "-o",
                "-p "
                    + env.get("NOSTREAM_PG_PORT")
                    + " -k "
                    + sock
                    + " -c listen_addresses=127.0.0.1 -c log_statement="
                    + env.get("NOSTREAM_PG_LOG_STATEMENT")
                    + " -c log_line_prefix='%m [%p] %c '"))
        .isZero();
    assertThat(pgCtl("status")).isZero();
  }

  /**
   * Runs {@code pg_ctl -D DATA ARGS} (as the postgres user when this JVM is root, as the setup
   * does) and returns its exit code: for {@code status}, 0 running and 3 not running.
   */
  private static int pgCtl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    cmd.add(pgBin().resolve("pg_ctl").toString());
    cmd.add("-D");
    cmd.add(env.get("NOSTREAM_PG_DATA"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  /** PostgreSQL's server binaries, found as the setup finds them (the newest under /usr/lib). */
  private static Path pgBin() throws Exception {
    String given = System.getenv("PG_BIN");
    if (given != null) {
      return Path.of(given);
    }
    try (var s = Files.list(Path.of("/usr/lib/postgresql"))) {
      return s.map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
          .max(
              java.util.Comparator.comparingInt(
                  b ->
                      Integer.parseInt(
                          b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
          .orElseThrow();
    }
  }

  /** Stops the setup's Redis by the pid its pid file names, and waits until it is gone. */
  private static long stopRedis() throws Exception {
    long pid = Long.parseLong(Files.readString(Path.of(env.get("NOSTREAM_REDIS_PID_FILE"))).trim());
    ProcessHandle p = ProcessHandle.of(pid).orElseThrow();
    assertThat(Files.readString(Path.of("/proc/" + pid + "/cmdline"))).contains("redis-server");
    assertThat(p.destroy()).isTrue();
    p.onExit().get(30, TimeUnit.SECONDS);
    assertThat(p.isAlive()).isFalse();
    return pid;
  }

  /** Starts Redis again with the setup's own command (docs/profiles/nostream/setup). */
  private static void startRedis() throws Exception {
    Path pidFile = Path.of(env.get("NOSTREAM_REDIS_PID_FILE"));
    Files.deleteIfExists(pidFile);
    Path dir = pidFile.getParent();
    Process p =
        new ProcessBuilder(
                "redis-server",
                "--port",
                env.get("NOSTREAM_REDIS_PORT"),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--daemonize",
                "yes",
                "--pidfile",
                pidFile.toString(),
                "--logfile",
                dir.resolve("redis.log").toString())
            .redirectErrorStream(true)
            .start();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 300 && (!Files.exists(pidFile) || Files.size(pidFile) == 0); i++) {
      Thread.sleep(100);
    }
    long pid = Long.parseLong(Files.readString(pidFile).trim());
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
  }
}
