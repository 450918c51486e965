package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.Answer;
import dev.ceiling.cli.report.Dossier;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweepFile;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.Explain;
import dev.ceiling.experiment.ExplainPlan;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.SplitRoundReport;
import dev.ceiling.verdict.ExperimentReport;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling explain} the way a user runs it: its help, each bad argument (exit 2, one line
 * naming it), every round on the built-in reference relay with short cells, the dossier's first
 * paragraph carrying each round's answer as that round's own file states it, and a partner whose
 * delay control cannot be set: that round fails, the dossier says so, and the A/B's answer stands.
 */
class ExplainCommandIT {
  @TempDir Path dir;

  @Test
  void helpAndEveryBadArgumentIsOneLineNamingIt() throws Exception {
    Cli.assertHelp(run("explain", "--help"), "ceiling explain");
    assertThat(run("--help").out()).contains("explain ");
    assertUsageError(run("explain", "--repeats", "1"), "--repeats");
    assertUsageError(run("explain", "--rates", "fast"), "--rates");
    assertUsageError(run("explain", "--delays", "4,2"), "--delays");
    assertUsageError(run("explain", "--identities", "0"), "--identities");
    assertUsageError(run("explain", "--sweep-rate", "0"), "--sweep-rate");
    assertUsageError(run("explain", "--lag-bound", "0ms"), "--lag-bound");
    assertUsageError(
        run("explain", "--sweep-rate", "50", "--latency-rate", "60"), "--latency-rate");
    assertUsageError(run("explain", "--duration", "0"), "--duration");
    assertUsageError(run("explain", "--profile", "no-such-profile"), "--profile");
    assertUsageError(run("explain", "--param", "no_such_param=1"), "--param");
    assertUsageError(run("explain", "--quiet", "--verbose"), "--quiet");
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertUsageError(run("explain", "--resume", empty.toString()), "--resume");
    Path planned = Files.createDirectories(dir.resolve("planned"));
    Files.writeString(planned.resolve(Explain.PLAN_FILE), "{}");
    assertUsageError(run("explain", "--out", planned.toString()), "--out");
  }

  /**
   * Partner: the same relay with a delay control the relay does not serve (404) and one community.
   * The sweep fails and the dossier says so in its paragraph; the A/B's answer stands; the lock
   * round cannot run on one community and says why.
   */
  @Test
  void aRoundThatFailsIsSaidAndTheOthersAnswersStand() throws Exception {
    Path profile = oneCommunity(dir, "/no-such-control");
    Path out = dir.resolve("partner");
    Cli.Outcome o = run(shortRun(profile.toString(), out));
    System.out.println("ExplainCommandIT partner:\n" + o);

    Dossier d = Json.read(out.resolve(Dossier.FILE), Dossier.class);
    assertThat(d.rounds())
        .extracting(Dossier.Entry::kind)
        .containsExactly(
            ExplainPlan.Kind.AB,
            ExplainPlan.Kind.DELAY_SWEEP,
            ExplainPlan.Kind.DEFAULTS,
            ExplainPlan.Kind.SPLIT);
    Dossier.Entry sweep = d.rounds().get(1);
    assertThat(sweep.status()).as(o.toString()).isEqualTo(Dossier.Status.FAILED);
    assertThat(d.answers())
        .contains("Delay sweep on link 'builtin': failed: ")
        .contains("no-such-control");
    assertThat(d.rounds().get(3).status()).isEqualTo(Dossier.Status.CANNOT_RUN);
    assertThat(d.answers()).contains("Lock round: cannot run: ");
    String ab =
        Answer.of(Json.read(out.resolve("ab/report.json"), ExperimentReport.class)).sentence();
    assertThat(d.answers()).contains(ab);
    // The command renders the A/B's page, and the dossier links it.
    assertThat(out.resolve("ab/report.html")).exists();
    assertThat(Files.readString(out.resolve("dossier.html"))).contains("href=\"ab/report.html\"");
    assertThat(d.rounds().get(0).status())
        .isIn(Dossier.Status.ESTABLISHED, Dossier.Status.NOT_ESTABLISHED);
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.INFRASTRUCTURE);
  }

  /**
   * The built-in reference profile with one community (no lock round) and its delay control at
   * {@code controlPath} (its own, "/audit-exchange-delay", or one the relay does not serve).
   */
  private static Path oneCommunity(Path dir, String controlPath) throws java.io.IOException {
    String json;
    try (InputStream in =
        ExplainCommandIT.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String control = "/audit-exchange-delay\"";
    String second =
        ",\n    {\"community\": \"b\", \"url\": \"ws://127.0.0.1:${port}/\", \"host_header\":"
            + " \"b.localhost:${port}\", \"tags\": [[\"t\", \"ceiling\"]], \"kind\": 1,"
            + " \"content_bytes\": 64}";
    assertThat(json).contains(control).contains(second);
    return Files.writeString(
        dir.resolve("one-community" + controlPath.replace('/', '-') + ".json"),
        json.replace(control, controlPath + "\"").replace(second, ""));
  }

  /**
   * Every round on the built-in reference relay, in a run stopped after its first round and then
   * continued with {@code --resume DIR}: the finished A/B is not measured again (its journals keep
   * their cells), the delay sweep and the lock round run, and the dossier's first paragraph carries
   * each round's answer as that round's own file states it. Partner: a resume with another option
   * than the run's is refused before a relay starts. (One run serves both: the plan, the rounds and
   * the dossier are the same whether a run was stopped on the way or not, and a second run only
   * measured the same A/B again.)
   */
  @Test
  void everyRoundOnTheReferenceRelayResumedAfterTheFirstAndTheDossierCarriesEachAnswer()
      throws Exception {
    Path out = dir.resolve("explain");
    String[] args = shortRun("reference", out);
    java.util.concurrent.atomic.AtomicReference<Explain> running =
        new java.util.concurrent.atomic.AtomicReference<>();
    Explain.Builder b =
        Explain.builder()
            .profile(dev.ceiling.rig.RelayProfile.builtIn("reference"))
            .relayOverrides(overrides(args))
            .duration(java.time.Duration.ofSeconds(1))
            .warmup(java.time.Duration.ofMillis(500))
            .repeats(2)
            .seed(7L)
            .rates(List.of(150.0))
            .delaysMs(List.of(2.0, 4.0))
            .outDir(out)
            .installShutdownHook(false)
            // The A/B's page beside its report.json, as the command renders it (the partner's
            // run, which is the command's throughout, shows that it does).
            .abExtra(ab -> ab.alsoRender("report.html", dev.ceiling.cli.report.HtmlReport::render))
            .progress(
                new dev.ceiling.experiment.ExplainProgress() {
                  @Override
                  public void roundEnded(
                      dev.ceiling.experiment.ExplainResult.RoundEnd end, java.time.Duration took) {
                    running.get().interrupt();
                  }
                });
    Explain first = b.build();
    running.set(first);
    long started = System.nanoTime();
    dev.ceiling.experiment.ExplainResult stopped = first.run();
    assertThat(stopped.interrupted()).isTrue();
    assertThat(stopped.rounds().get(0).ran())
        .isEqualTo(dev.ceiling.experiment.ExplainResult.Ran.RAN);
    assertThat(stopped.rounds().get(1).ran())
        .isEqualTo(dev.ceiling.experiment.ExplainResult.Ran.NOT_FINISHED);
    assertThat(out.resolve("delay-sweep-builtin")).doesNotExist();
    long onCells = Files.readAllLines(out.resolve("ab/journal-on.jsonl")).size();
    long offCells = Files.readAllLines(out.resolve("ab/journal-off.jsonl")).size();

    // The plan before the first cell: the A/B, the sweep on 'builtin', the lock round; the
    // defaults round cannot run on a profile that declares no admission limits, and says why.
    ExplainPlan plan = Json.read(out.resolve(Explain.PLAN_FILE), ExplainPlan.class);
    assertThat(plan.rounds())
        .extracting(ExplainPlan.Round::dir)
        .containsExactly("ab", "delay-sweep-builtin", "split");
    assertThat(plan.notRun()).hasSize(1);
    assertThat(plan.notRun().get(0).kind()).isEqualTo(ExplainPlan.Kind.DEFAULTS);
    assertThat(plan.notRun().get(0).reason()).contains("admission limits");

    // Partner: another --repeats than the run's is another plan, refused before a relay starts.
    List<String> other = new ArrayList<>(List.of(args));
    other.set(other.indexOf("--repeats") + 1, "3");
    other.remove(other.size() - 1);
    other.remove(other.size() - 1);
    other.addAll(List.of("--resume", out.toString()));
    Cli.Outcome refused = run(other.toArray(String[]::new));
    assertThat(refused.code()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(refused.errLines()).as(refused.toString()).hasSize(1);
    assertThat(refused.err()).contains(Explain.PLAN_FILE).contains("repeats=3");

    List<String> resume = new ArrayList<>(List.of(args));
    resume.remove(resume.size() - 1);
    resume.remove(resume.size() - 1);
    resume.addAll(List.of("--resume", out.toString()));
    Cli.Outcome o = run(resume.toArray(String[]::new));
    System.out.printf(
        "ExplainCommandIT stopped and resumed: %.0f s%n%s%n",
        (System.nanoTime() - started) / 1e9, o);
    assertThat(o.err())
        .contains(", measured by the run resumed")
        .contains("in all (estimate)")
        .contains("round 2 of 3: delay sweep")
        .contains("round 3 of 3: lock round");
    assertThat(Files.readAllLines(out.resolve("ab/journal-on.jsonl"))).hasSize((int) onCells);
    assertThat(Files.readAllLines(out.resolve("ab/journal-off.jsonl"))).hasSize((int) offCells);

    // Each round's own answer, read from its own file, is in the dossier's first paragraph.
    Dossier d = Json.read(out.resolve(Dossier.FILE), Dossier.class);
    String ab =
        Answer.of(Json.read(out.resolve("ab/report.json"), ExperimentReport.class)).sentence();
    DelaySweepReport sweep =
        DelaySweepFile.read(out.resolve("delay-sweep-builtin/sensitivity.json"));
    assertThat(sweep.complete()).as(o.toString()).isTrue();
    SplitRoundReport split = Json.read(out.resolve("split/split.json"), SplitRoundReport.class);
    assertThat(split.complete()).isTrue();
    assertThat(d.answers())
        .contains(ab)
        .contains(sweep.answer())
        .contains(split.verdict().words())
        .contains("Defaults round: cannot run: ");
    String html = Files.readString(out.resolve("dossier.html"));
    assertThat(html)
        .contains("<p id=\"answers\">")
        .contains("href=\"ab/report.html\"")
        .contains("href=\"delay-sweep-builtin/sensitivity.html\"")
        .contains("href=\"split/split.json\"");
    assertThat(out.resolve("delay-sweep-builtin/sensitivity.html")).exists();
    assertThat(o.out().lines().findFirst().orElse("")).isEqualTo(d.answers());

    // The exit code is every round's: 0 only when each that ran established.
    boolean all =
        d.rounds().stream()
            .filter(e -> e.status() != Dossier.Status.CANNOT_RUN)
            .allMatch(e -> e.status() == Dossier.Status.ESTABLISHED);
    assertThat(d.outcome()).isEqualTo(all ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED);
    assertThat(o.code())
        .as(o.toString())
        .isEqualTo(all ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED);
  }

  /** The --param NAME=VALUE pairs of {@code args}. */
  private static java.util.Map<String, String> overrides(String[] args) {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals("--param")) {
        String[] kv = args[i + 1].split("=", 2);
        out.put(kv[0], kv[1]);
      }
    }
    return out;
  }

  /** The shortest run: 1 s cells, two repeats, one rate, two delays, a 20-run calibration. */
  private static String[] shortRun(String profile, Path out) throws java.io.IOException {
    List<String> a =
        new ArrayList<>(
            List.of(
                "explain",
                "--profile",
                profile,
                "--param",
                "port=" + FreePorts.one(),
                "--param",
                "db_port=" + FreePorts.one(),
                "--param",
                "queue_capacity=20",
                "--param",
                "calibration_runs=20",
                "--rates",
                "150",
                "--repeats",
                "2",
                "--duration",
                "1",
                "--warmup",
                "0.5",
                "--delays",
                "2,4",
                "--seed",
                "7",
                "--out",
                out.toString()));
    return a.toArray(String[]::new);
  }
}
