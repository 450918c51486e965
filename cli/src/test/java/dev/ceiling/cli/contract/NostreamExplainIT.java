package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.Answer;
import dev.ceiling.cli.report.Dossier;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.core.testing.SharedNostream;
import dev.ceiling.experiment.DelaySweepFile;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.Explain;
import dev.ceiling.experiment.ExplainPlan;
import dev.ceiling.experiment.ExplainPlan.Kind;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.IdentitiesRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling explain} on nostream, a relay this project did not write, with short cells: the
 * A/B of its rate-limit rules, the delay sweep on {@code db} and on {@code cache} (both slopes and
 * the wire count), the defaults round at admission limits the test declares and writes into
 * nostream's own settings, and the lock round's one line (nostream's profile declares one
 * community). The dossier's first paragraph carries each round's answer exactly as that round's own
 * file states it; this test claims no relay figure of its own beyond the one the test's settings
 * make true (one signing key at 40/s against a budget of 20 per second is refused).
 *
 * <p>The limits: 20 kind-1 events per signing key per 1 s, nothing per address. The truth is the
 * settings file written here: nostream counts every attempt, refused ones too, so one key sending
 * 40/s overflows every 1 s window and is refused from the first second on; eight keys send 5/s
 * each, under the budget; the round predicts ceil(40 x 1 / 20) = 2 keys. The A/B and the sweeps
 * sign with the generator's eight keys: at 40/s and 100/s that is 5 and 12.5 per key per second,
 * under the budget, so the rules arm refuses nothing there. The sweeps offer 100/s (nostream's
 * ceiling here is some hundreds/s on a quiet machine, and --sweep-rate spares one ceiling ramp per
 * link) with latency cells at 20/s.
 *
 * <p>The partner: the same run whose profile declares a 2 s window for the same limit. A 0.5 s
 * warm-up and 1 s window cover 1.5 s, so the defaults round cannot run, and the dossier says so,
 * naming the window, while the A/B's answer stands as its file states it. To keep its cost to the
 * A/B's, the partner's profile declares no link (nostream reaches its servers directly), so its
 * sweeps cannot run either and say so.
 *
 * <p>Lives in cli, not e2e, because it runs the command and reads the dossier (cli's), which e2e's
 * module rule keeps out. Needs the nostream setup that {@code .ci/run} starts beside the build
 * ({@code CEILING_NOSTREAM_STATUS}, {@code CEILING_NOSTREAM_DIR}); skips loudly without it.
 */
class NostreamExplainIT {
  @RegisterExtension
  static final SharedNostream NOSTREAM = SharedNostream.fromCi("ceiling explain on nostream");

  static final Path PROFILE_DIR = SharedNostream.PROFILE_DIR;
  private static final int KEY_LIMIT = 20;
  private static final String OFFER = "40";

  @TempDir Path dir;

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void everyRoundOnNostreamAndTheDossierCarriesEachAnswer() throws Exception {
    Path out = dir.resolve("explain");
    long started = System.nanoTime();
    Cli.Outcome o = run(args(profile(1, true), out));
    double tookS = (System.nanoTime() - started) / 1e9;
    ExplainPlan plan = Json.read(out.resolve(Explain.PLAN_FILE), ExplainPlan.class);
    System.out.printf(
        Locale.ROOT,
        "NostreamExplainIT: %.0f s against an estimate of %.0f s%n%s%n",
        tookS,
        plan.estimateS(),
        o);

    // The plan: the A/B, a sweep per link at the given offers, the defaults round; the lock round
    // cannot run on one community and says why.
    assertThat(plan.rounds())
        .extracting(ExplainPlan.Round::dir)
        .containsExactly("ab", "delay-sweep-db", "delay-sweep-cache", "defaults");
    for (ExplainPlan.Round r : plan.rounds()) {
      assertThat(out.resolve(r.dir())).as(r.dir()).isDirectory();
    }
    assertThat(plan.rounds().get(1).settings().ratesPerS()).containsExactly(100.0);
    assertThat(plan.rounds().get(1).settings().latencyRatePerS()).isEqualTo(20.0);
    assertThat(plan.notRun()).extracting(ExplainPlan.NotRun::kind).containsExactly(Kind.SPLIT);

    Dossier d = Json.read(out.resolve(Dossier.FILE), Dossier.class);
    assertThat(o.out().lines().findFirst().orElse("")).isEqualTo(d.answers());
    assertThat(d.rounds())
        .extracting(Dossier.Entry::kind)
        .containsExactly(Kind.AB, Kind.DELAY_SWEEP, Kind.DELAY_SWEEP, Kind.DEFAULTS, Kind.SPLIT);
    abStands(out, d, o);
    sweepsStand(out, d, o);

    // The defaults round: its prediction from the declared budget, its reading at one key (the
    // settings written here refuse it), and its words in the paragraph.
    IdentitiesRoundReport defaults =
        Json.read(out.resolve("defaults/identities.json"), IdentitiesRoundReport.class);
    assertThat(defaults.complete()).as(o.toString()).isTrue();
    assertThat(defaults.admission().prediction().keys())
        .isEqualTo((int) Math.ceil(Double.parseDouble(OFFER) * 1 / KEY_LIMIT));
    assertThat(defaults.verdict()).as(o.toString()).isNotNull();
    assertThat(defaults.verdict().row(1).reading())
        .as(o.toString())
        .isEqualTo(IdentitiesRow.Reading.LIMITER);
    assertThat(d.answers()).contains("Defaults round: " + defaults.verdict().words());
    assertThat(d.rounds().get(3).status())
        .isIn(Dossier.Status.ESTABLISHED, Dossier.Status.NOT_ESTABLISHED);
    assertThat(d.answers()).contains("Lock round: cannot run: " + plan.notRun().get(0).reason());
    assertThat(plan.notRun().get(0).reason()).contains("declares 1 community");

    boolean all =
        d.rounds().stream()
            .filter(e -> e.status() != Dossier.Status.CANNOT_RUN)
            .allMatch(e -> e.status() == Dossier.Status.ESTABLISHED);
    assertThat(d.outcome()).isEqualTo(all ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED);
    assertThat(o.code())
        .as(o.toString())
        .isEqualTo(all ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED);
  }

  /**
   * Partner: the profile declares a 2 s window for the same limit; the cells cover 1.5 s, so the
   * defaults round cannot run and the dossier says why, while every other answer stands.
   */
  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void aRoundThatCannotRunIsSaidAndTheOthersAnswersStand() throws Exception {
    Path out = dir.resolve("partner");
    long started = System.nanoTime();
    Cli.Outcome o = run(args(profile(2, false), out));
    System.out.printf(
        Locale.ROOT,
        "NostreamExplainIT partner: %.0f s%n%s%n",
        (System.nanoTime() - started) / 1e9,
        o);
    ExplainPlan plan = Json.read(out.resolve(Explain.PLAN_FILE), ExplainPlan.class);
    assertThat(plan.rounds()).extracting(ExplainPlan.Round::dir).containsExactly("ab");
    assertThat(plan.notRun())
        .extracting(ExplainPlan.NotRun::kind)
        .containsExactly(Kind.DELAY_SWEEP, Kind.DEFAULTS, Kind.SPLIT);
    assertThat(out.resolve("defaults")).doesNotExist();
    Dossier d = Json.read(out.resolve(Dossier.FILE), Dossier.class);
    Dossier.Entry defaults =
        d.rounds().stream().filter(e -> e.kind() == Kind.DEFAULTS).findFirst().orElseThrow();
    assertThat(defaults.status()).isEqualTo(Dossier.Status.CANNOT_RUN);
    assertThat(d.answers())
        .contains("Defaults round: cannot run: the declared admission limit ")
        .contains("has a 2 s window")
        .contains("covers only 1.5 s")
        .contains("Delay sweep: cannot run: profile 'nostream' declares no link");
    abStands(out, d, o);
    assertThat(o.code()).as(o.toString()).isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
  }

  /** The A/B's answer, as its own file states it, is in the paragraph. */
  private static void abStands(Path out, Dossier d, Cli.Outcome o) throws Exception {
    String ab =
        Answer.of(Json.read(out.resolve("ab/report.json"), ExperimentReport.class)).sentence();
    assertThat(d.answers()).as(o.toString()).contains(ab);
    assertThat(d.rounds().get(0).status())
        .as(o.toString())
        .isIn(Dossier.Status.ESTABLISHED, Dossier.Status.NOT_ESTABLISHED);
  }

  /**
   * Both sweeps' answers, each as its own file states it, are in the paragraph, each with its wire
   * count and both slopes.
   */
  private static void sweepsStand(Path out, Dossier d, Cli.Outcome o) throws Exception {
    for (String link : List.of("db", "cache")) {
      DelaySweepReport sweep =
          DelaySweepFile.read(out.resolve("delay-sweep-" + link + "/sensitivity.json"));
      assertThat(sweep.complete()).as(link + ": " + o).isTrue();
      assertThat(sweep.latencySlope()).as(link).isNotNull();
      // The latency slope's answer names its link first; the paragraph names it once.
      String own = "link '" + link + "': ";
      assertThat(sweep.answer()).startsWith(own);
      assertThat(d.answers())
          .as(o.toString())
          .contains("Delay sweep on link '" + link + "': " + sweep.answer().substring(own.length()))
          .doesNotContain(own + own);
      Double wire = sweep.latencySlope().wireTurnsPerOkTrue();
      assertThat(wire).as(link + ": the proxy counted the link's turns").isNotNull().isPositive();
      assertThat(sweep.answer())
          .contains(String.format(Locale.ROOT, "wire %.2f", wire))
          .contains(sweep.latencySlope().ceilingReading());
      assertThat(d.rounds().stream().filter(e -> e.page() != null && e.page().contains(link)))
          .as(link + "'s page")
          .isNotEmpty();
    }
  }

  /**
   * nostream's profile with the treatment arm's settings replaced by the 1 s limit, and that limit
   * declared with a window of {@code declaredWindowS} (1, as set; 2 for the partner); without
   * {@code links}, nostream reaches PostgreSQL and Redis directly and the profile declares no link
   * (the partner's, which so measures only the A/B).
   */
  private Path profile(int declaredWindowS, boolean links) throws Exception {
    Path settings = Files.createDirectories(dir.resolve("settings"));
    Files.writeString(
        settings.resolve("settings.yaml"),
        String.join(
            "\n",
            "limits:",
            "  connection:",
            "    rateLimits: []",
            "  message:",
            "    rateLimits: []",
            "  event:",
            "    rateLimits:",
            "      - kinds: [1]",
            "        period: 1000",
            "        rate: " + KEY_LIMIT,
            ""),
        StandardCharsets.UTF_8);
    Path stock = PROFILE_DIR.toAbsolutePath().normalize();
    ObjectNode p = (ObjectNode) Json.mapper().readTree(stock.resolve("profile.json").toFile());
    String profileDir = "${profile_dir}";
    ObjectNode env = (ObjectNode) p.get("environment");
    env.put("NODE_OPTIONS", env.get("NODE_OPTIONS").asText().replace(profileDir, stock.toString()));
    if (!links) {
      p.putArray("upstreams");
      env.put("DB_HOST", "127.0.0.1").put("DB_PORT", "${pg_port}");
      env.put("REDIS_URI", "redis://127.0.0.1:${redis_port}");
    }
    ((ObjectNode) p.get("arms").get("rules").get("env"))
        .put("NOSTR_CONFIG_DIR", settings.toString());
    ((ObjectNode) p.get("arms").get("none").get("env"))
        .put("NOSTR_CONFIG_DIR", stock.resolve("settings-off").toString());
    ArrayNode check = (ArrayNode) p.get("control_check");
    for (int i = 0; i < check.size(); i++) {
      check.set(i, check.get(i).asText().replace(profileDir, stock.toString()));
    }
    ArrayNode limits = p.putArray("admission_limits");
    ObjectNode key = limits.addObject();
    key.put("per", "signing_key").put("counts", "events").put("limit", KEY_LIMIT);
    key.put("window_seconds", declaredWindowS);
    key.putArray("kinds").add(1);
    key.putObject("refusal").put("answer", "ok_false").put("prefix", "rate-limited:");
    Path file =
        dir.resolve("profile-" + declaredWindowS + "s" + (links ? "" : "-direct") + ".json");
    Json.mapper().writeValue(file.toFile(), p);
    return file;
  }

  /**
   * Short cells: 0.5 s warm-up, 1 s window, two repeats, two delays, the offers fixed. A send-lag
   * bound of 1 s, as NostreamDefaultsRoundIT's: on a loaded machine (load 29) the default bound of
   * about 12 ms excluded most cells as generator-bound, the one-key row among them (NOT_MEASURED);
   * a stall of up to 1 s delays sends within a cell but does not move what the relay refuses.
   */
  private static String[] args(Path profile, Path out) throws Exception {
    Map<String, String> env = NOSTREAM.env();
    List<String> a =
        new ArrayList<>(
            List.of(
                "explain",
                "--profile",
                profile.toString(),
                "--param",
                "nostream_dir=" + env.get("NOSTREAM_DIR"),
                "--param",
                "pg_port=" + env.get("NOSTREAM_PG_PORT"),
                "--param",
                "redis_port=" + env.get("NOSTREAM_REDIS_PORT"),
                "--param",
                "port=" + FreePorts.one(),
                "--rates",
                OFFER,
                "--sweep-rate",
                "100",
                "--latency-rate",
                "20",
                "--identities",
                "1,8",
                "--repeats",
                "2",
                "--duration",
                "1",
                "--warmup",
                "0.5",
                "--delays",
                "0,4",
                "--lag-bound",
                "1s",
                "--seed",
                "7",
                "--out",
                out.toString()));
    return a.toArray(String[]::new);
  }
}
