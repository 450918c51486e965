package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.LinkHealth;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentProgress;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.ProblemKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A link outage in the middle of an A/B on nostream, a relay this project did not write: Redis (its
 * {@code cache} link) is stopped by the pid its setup recorded after the treatment arm's first cell
 * and started again, with the setup's own command, after its third. The cells that ran during the
 * outage are excluded for {@code LINK_FAILED} naming {@code cache}; the half-run holds every cell;
 * the partner, the same A/B without the outage, has no {@code LINK_FAILED} at all.
 *
 * <p>The truth that Redis was down is established outside Ceiling: the process is gone (its pid no
 * longer names a live redis-server) before the next cell starts, and a fresh one is up (its pid
 * file names a live redis-server) before the cell after. Needs the setup's work directory in {@code
 * CEILING_NOSTREAM_DIR} and its exit code in {@code CEILING_NOSTREAM_STATUS}, as {@link
 * NostreamWireCountIT}; skips loudly without them.
 */
class NostreamLinkOutageIT {
  private static Map<String, String> env;

  @TempDir Path dir;

  @BeforeAll
  static void nostreamIsSetUp() throws Exception {
    String status = System.getenv("CEILING_NOSTREAM_STATUS");
    String work = System.getenv("CEILING_NOSTREAM_DIR");
    String why = null;
    if (status == null || work == null) {
      why = "CEILING_NOSTREAM_STATUS and CEILING_NOSTREAM_DIR are not set";
    } else {
      for (int i = 0; i < 600 && !Files.exists(Path.of(status)); i++) {
        Thread.sleep(1000);
      }
      if (!Files.exists(Path.of(status)) || !Files.readString(Path.of(status)).trim().equals("0")) {
        why = "nostream's setup did not succeed (" + status + ")";
      }
    }
    if (why != null) {
      System.err.println("\n*** SKIPPING NostreamLinkOutageIT: " + why + " ***\n");
      Assumptions.abort(why);
    }
    env = new HashMap<>();
    for (String line : Files.readAllLines(Path.of(work, "ceiling.env"))) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        env.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
      }
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void redisStoppedDuringTheTreatmentArmExcludesItsCellsForTheCacheLink() throws Exception {
    Outage outage = new Outage("rules");
    ExperimentResult r = run(outage);
    assertThat(outage.stoppedPid).as("Redis was stopped during the treatment arm").isNotNull();
    assertThat(outage.restarted).as("and started again").isTrue();

    HalfRun treatment = half(r, "rules");
    assertThat(treatment.complete()).as("the half-run holds every cell measured").isTrue();
    assertThat(treatment.cells()).hasSize(4);
    List<ExcludedCell> linkFailed =
        r.report().verdict().excluded().stream()
            .filter(e -> e.reasons().stream().anyMatch(p -> p.kind() == ProblemKind.LINK_FAILED))
            .toList();
    // The second and third treatment cells ran with Redis gone from start to end.
    assertThat(linkFailed)
        .extracting(e -> e.cell().arm() + "#" + e.cell().sequence())
        .contains("rules#" + outage.during.get(0), "rules#" + outage.during.get(1));
    for (ExcludedCell e : linkFailed) {
      assertThat(e.cell().arm()).as("only the arm with the outage").isEqualTo("rules");
      CellProblem p =
          e.reasons().stream().filter(x -> x.kind() == ProblemKind.LINK_FAILED).findFirst().get();
      assertThat(p.message()).startsWith("link 'cache': ").contains("into the cell");
      assertThat(p.message()).doesNotContain("link 'db'");
    }
    for (Cell c : treatment.cells()) {
      if (outage.during.contains(c.sequence())) {
        LinkHealth cache = link(c, "cache");
        assertThat(cache.failed()).as("cell %d's cache link", c.sequence()).isTrue();
        assertThat(cache.refused() + cache.dropped() + cache.stalls()).isPositive();
      }
    }
    // Not decided by them: the verdict excluded each of them, so none is evidence.
    assertThat(r.report().verdict().excluded())
        .extracting(e -> e.cell().arm() + "#" + e.cell().sequence())
        .containsAll(
            linkFailed.stream().map(e -> e.cell().arm() + "#" + e.cell().sequence()).toList());
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void partnerTheSameRunWithoutTheOutageHasNoLinkFailure() throws Exception {
    ExperimentResult r = run(new Outage(null));
    for (String arm : List.of("rules", "none")) {
      HalfRun h = half(r, arm);
      assertThat(h.complete()).isTrue();
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
  }

  private ExperimentResult run(Outage outage) throws Exception {
    RelayProfile profile =
        RelayProfile.load(NostreamWireCountIT.PROFILE_DIR.resolve("profile.json"));
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

  private static HalfRun half(ExperimentResult r, String arm) {
    return r.report().treatment().arm().equals(arm) ? r.report().treatment() : r.report().control();
  }

  private static LinkHealth link(Cell c, String name) {
    return c.environment().links().stream()
        .filter(l -> l.link().equals(name))
        .findFirst()
        .orElseThrow();
  }

  /**
   * Stops Redis after the first cell of {@code arm} and starts it after the third (null: never).
   */
  private static final class Outage implements ExperimentProgress {
    private final String arm;
    private volatile String current;
    volatile Long stoppedPid;
    volatile boolean restarted;
    final List<Integer> during = new CopyOnWriteArrayList<>();

    Outage(String arm) {
      this.arm = arm;
    }

    @Override
    public void rigUp(String arm, RigDescriptor rig) {
      current = arm;
    }

    @Override
    public void cellFinished(Cell cell, int done, int planned) {
      if (arm == null || !arm.equals(current)) {
        return;
      }
      try {
        if (done == 1) {
          stoppedPid = stopRedis();
        } else if (done == 2) {
          during.add(cell.sequence());
        } else if (done == 3) {
          during.add(cell.sequence());
          startRedis();
          restarted = true;
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
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
