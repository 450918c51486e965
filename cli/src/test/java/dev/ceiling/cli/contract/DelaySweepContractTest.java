package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertHelp;
import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.experiment.DelaySweepContrast;
import dev.ceiling.experiment.DelaySweepReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling sensitivity} as a user runs it, without a relay: help, and each bad argument
 * refused before anything starts (exit 2, one line naming it). The happy path, which needs the
 * relay, is DelaySweepCommandIT.
 */
class DelaySweepContractTest {
  @TempDir Path dir;

  @Test
  void helpExitsZeroAndNamesTheOptions() {
    Cli.Outcome o = run("sensitivity", "--help");
    assertHelp(o, "ceiling delay-sweep");
    assertThat(o.out())
        .contains(
            "--link",
            "--delays",
            "--repeats",
            "--expect-round-trips",
            "--margin",
            "--rate",
            "--identities",
            "--contrast",
            "--resume",
            "each in",
            "links.json",
            "a=2,b=3");
  }

  /**
   * {@code --at LINK=DELAY}: a delay picocli cannot read, a negative one, an unknown or unswept
   * link, a delay on the grid or beyond the proxy's limit: exit 2, one line naming {@code --at}
   * (several problems in that one line, all at once). Partner: good what-ifs get past every check
   * (and stop at a bad --param, still before anything starts).
   */
  @Test
  void badWhatIfsAreRefusedNamingTheOption() throws Exception {
    String profile = ShortSweep.twoLinks(dir).toString();
    assertUsageError(run("sensitivity", "--at", "db=fast"), "--at");
    assertUsageError(run("sensitivity", "--at", "db=fast"), "'fast' is not a delay like 1.5ms");
    assertUsageError(run("sensitivity", "--at", "db=-1ms"), "must be a finite delay >= 0");
    assertUsageError(run("sensitivity", "--at", "db"), "--at");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--at", "redis=1.5ms"),
        "--at: link 'redis' is not a link of the profile: [db, cache]");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--link", "db", "--at", "cache=1.5ms"),
        "--at: link 'cache' is not swept");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--link", "db", "--at", "db=2ms"),
        "--at db: holdout delay 2.0 ms is on the swept grid");
    Cli.Outcome both =
        run(
            "sensitivity",
            "--profile",
            profile,
            "--at",
            "db=20000ms",
            "--at",
            "cache=1",
            "--delays",
            "0,1,2");
    assertUsageError(both, "--at db: holdout delay must be in [0, 10000] ms, got 20000.0");
    assertUsageError(both, "--at cache: holdout delay 1.0 ms is on the swept grid");
    assertUsageError(
        run("explain", "--profile", profile, "--at", "redis=1.5ms"),
        "--at: link 'redis' is not a link of the profile");
    for (List<String> good :
        List.of(
            List.of("sensitivity", "--at", "db=1.5ms", "--at", "cache=1500us"),
            List.of("sensitivity", "--link", "db", "--at", "db=0.0015s"),
            List.of("explain", "--at", "cache=7"))) {
      List<String> args = new java.util.ArrayList<>(good);
      args.addAll(List.of("--profile", profile, "--param", "nope=1"));
      Cli.Outcome o = run(args.toArray(String[]::new));
      assertUsageError(o, "--param");
      assertThat(o.err()).as(good.toString()).doesNotContain("--at");
    }
  }

  @Test
  void countsPerLinkMustNameSweptLinks() throws Exception {
    String profile = ShortSweep.twoLinks(dir).toString();
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "2"),
        "--expect-round-trips: links [db, cache] are each swept; declare a count per link");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "db=2,redis=3"),
        "--expect-round-trips: link 'redis' is not a link of the profile: [db, cache]");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--link", "db", "--expect-round-trips", "cache=3"),
        "--expect-round-trips: link 'cache' is not swept (--link db)");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "db=x"),
        "--expect-round-trips db must be a count of round trips");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "db=2,db=3"),
        "--expect-round-trips: link 'db' is given twice");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "=2"),
        "--expect-round-trips: expected NAME=K");
    assertUsageError(run("sensitivity", "--profile", profile, "--link", "redis"), "--link 'redis'");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--contrast", "audit_exchanges=5"),
        "--contrast sweeps one link: give --link with it");
    // Partner: a count for each link, or one count with --link, gets past the checks (and then
    // stops at a bad --param, still before anything starts).
    for (List<String> good :
        List.of(
            List.of("--expect-round-trips", "db=6,cache=0"),
            List.of("--expect-round-trips", "6", "--link", "db"),
            List.of("--expect-round-trips", "cache=0", "--link", "cache"))) {
      List<String> args = new java.util.ArrayList<>(List.of("sensitivity", "--profile", profile));
      args.addAll(good);
      args.addAll(List.of("--param", "nope=1"));
      Cli.Outcome o = run(args.toArray(String[]::new));
      assertUsageError(o, "--param");
      assertThat(o.err()).as(good.toString()).doesNotContain("--expect-round-trips", "--link");
    }
  }

  @Test
  void anOutputDirectoryWithALinksTableIsRefused() throws Exception {
    Path used = Files.createDirectories(dir.resolve("used-links"));
    Files.writeString(used.resolve("links.json"), "{}");
    assertUsageError(
        run(
            "sensitivity",
            "--profile",
            ShortSweep.twoLinks(dir).toString(),
            "--out",
            used.toString()),
        "--out " + used + " already holds a links.json");
  }

  @Test
  void anUnknownLinkIsNamedWithTheOnesTheProfileDeclares() {
    Cli.Outcome o = run("sensitivity", "--link", "redis");
    assertUsageError(o, "--link 'redis'");
    assertThat(o.err()).contains("[db]");
  }

  @Test
  void aProfileWithoutUpstreamsNeedsALinkItCannotHave() {
    assertUsageError(run("sensitivity", "--profile", "reference-defaults"), "--link is required");
  }

  @Test
  void badDelayGridsAreRefused() {
    assertUsageError(run("sensitivity", "--delays", "1"), "--delays must name at least 2");
    assertUsageError(run("sensitivity", "--delays", "0,-1,2"), "--delays must each be in");
    assertUsageError(
        run("sensitivity", "--delays", "0,2,1"), "--delays must be strictly ascending");
    assertUsageError(
        run("sensitivity", "--delays", "0,1,1"), "--delays must be strictly ascending");
    assertUsageError(run("sensitivity", "--delays", "0,1e9"), "--delays must each be in");
    assertUsageError(run("sensitivity", "--delays", "0,abc"), "--delays");
    assertUsageError(run("sensitivity", "--delays", ""), "--delays");
  }

  @Test
  void badNumbersAreRefusedNamingTheirOption() {
    assertUsageError(run("sensitivity", "--margin", "0"), "--margin");
    assertUsageError(run("sensitivity", "--margin", "-0.5"), "--margin");
    assertUsageError(run("sensitivity", "--repeats", "1"), "--repeats");
    assertUsageError(run("sensitivity", "--duration", "0"), "--duration");
    assertUsageError(run("sensitivity", "--rate", "-5"), "--rate");
    assertUsageError(run("sensitivity", "--rate", "NaN"), "--rate");
    assertUsageError(run("sensitivity", "--expect-round-trips", "-1"), "--expect-round-trips");
    assertUsageError(run("sensitivity", "--param", "nope=1"), "--param");
    assertUsageError(run("sensitivity", "--identities", "0"), "--identities");
    assertUsageError(run("sensitivity", "--identities", "10001"), "--identities");
    assertUsageError(run("sensitivity", "--identities", "many"), "--identities");
  }

  /**
   * The latency offer is checked where explain checks it (one mixin): in range, and below the one
   * saturating offer when given. Partner: a latency offer below --rate passes that check and the
   * run stops at the next problem, a bad --param, whose line does not name --latency-rate.
   */
  @Test
  void aLatencyOfferMustLieBelowTheSweepsOffer() {
    assertUsageError(run("sensitivity", "--latency-rate", "-1"), "--latency-rate");
    assertUsageError(
        run("sensitivity", "--rate", "50", "--latency-rate", "60"),
        "--latency-rate must be below --rate (50.0 events/s), got 60.0");
    Cli.Outcome below = run("sensitivity", "--rate", "50", "--latency-rate", "5", "--param", "x=1");
    assertUsageError(below, "--param");
    assertThat(below.err()).as(below.toString()).doesNotContain("--latency-rate");
  }

  @Test
  void aContrastMustNameAProfileParameterAndChangeIt() {
    Cli.Outcome unknown = run("sensitivity", "--contrast", "nope=1");
    assertUsageError(unknown, "--contrast nope is not a parameter of profile 'reference-linked'");
    assertThat(unknown.err()).contains("audit_exchanges");
    // The profile's own value, or the one --param already sets, is no contrast.
    assertUsageError(
        run("sensitivity", "--contrast", "audit_exchanges=6"),
        "--contrast audit_exchanges=6 is what the base arm runs already");
    assertUsageError(
        run("sensitivity", "--param", "audit_exchanges=5", "--contrast", "audit_exchanges=5"),
        "--contrast audit_exchanges=5 is what the base arm runs already");
    assertUsageError(run("sensitivity", "--contrast", "novalue"), "--contrast");
    // Partner: a contrast that changes a parameter gets past the checks (and then stops at a bad
    // --param, still before anything starts).
    Cli.Outcome good = run("sensitivity", "--contrast", "audit_exchanges=5", "--param", "nope=1");
    assertUsageError(good, "--param");
    assertThat(good.err()).doesNotContain("--contrast");
  }

  @Test
  void everyProblemIsOnTheOneLine() {
    Cli.Outcome o = run("sensitivity", "--margin", "0", "--repeats", "1", "--link", "x");
    assertUsageError(o, "--margin");
    assertThat(o.err()).contains("--repeats", "--link 'x'");
  }

  @Test
  void anOutputDirectoryWithAReportIsRefusedAndAFreshOneIsNot() throws Exception {
    Path used = Files.createDirectories(dir.resolve("used"));
    Files.writeString(used.resolve("sensitivity.json"), "{}");
    assertUsageError(run("sensitivity", "--out", used.toString()), "--out");
    // Partner: the same command with a fresh directory gets past the checks (and then stops at a
    // bad --param, still before anything starts).
    Cli.Outcome fresh =
        run("sensitivity", "--out", dir.resolve("fresh").toString(), "--param", "nope=1");
    assertUsageError(fresh, "--param");
    assertThat(fresh.err()).doesNotContain("--out");
  }

  @Test
  void resumeNeedsADirectoryAndIsNotCombinedWithOut() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    assertUsageError(
        run("sensitivity", "--resume", file.toString()),
        "--resume: " + file + " is not a directory");
    assertUsageError(
        run("sensitivity", "--resume", dir.toString(), "--out", dir.resolve("o").toString()),
        "--resume DIR continues the sweep in DIR; it cannot be combined with --out");
    assertUsageError(
        run("sensitivity", "--resume", dir.toString()),
        "nothing to resume: " + dir.resolve("sensitivity.json") + " does not exist");
  }

  /**
   * A stored sweep (the page tests' fixture: delays 2, 3, 4 ms x 2 repeats, seed 3, 80/s given,
   * complete) resumed with options that declare another plan is refused before a relay starts,
   * naming each difference, and the file is left as it was. The partner, the same options, gets
   * past the plan check and is refused only because the sweep is complete.
   */
  @Test
  void aResumeWhosePlanDiffersIsRefusedNamingWhatDiffersAndTouchesNothing() throws Exception {
    Path stored = storedSweep();
    String before = sha256(stored.resolve("sensitivity.json"));
    assertUsageError(resume(stored, "--seed", "4"), "plan.seed sensitivity.json 3, now 4");
    assertUsageError(
        resume(stored, "--delays", "2,3,5"),
        "plan.delays_ms sensitivity.json [2.0, 3.0, 4.0], now [2.0, 3.0, 5.0]");
    assertUsageError(resume(stored, "--repeats", "3"), "plan.repeats sensitivity.json 2, now 3");
    assertUsageError(
        resume(stored, "--expect-round-trips", "6"),
        "plan.expected_round_trips sensitivity.json null, now 6.0");
    assertUsageError(
        resume(stored, "--rate", "90"), "plan.offered_per_s sensitivity.json 80.0, now 90.0");
    assertUsageError(resume(stored, "--identities", "4"), "measurement sensitivity.json");
    // Another what-if is another plan: its holdout cells would be cells the plan never had.
    assertUsageError(
        resume(stored, "--at", "db=1.5ms"), "plan.holdout_delay_ms sensitivity.json null, now 1.5");
    Cli.Outcome two = resume(stored, "--seed", "4", "--margin", "0.7");
    assertUsageError(two, "plan.seed");
    assertThat(two.err()).contains("plan.margin sensitivity.json 0.5, now 0.7");
    assertUsageError(
        resume(stored, "--contrast", "audit_exchanges=5"), "contrast: none (no contrast.json)");
    assertThat(sha256(stored.resolve("sensitivity.json"))).isEqualTo(before);
    // Partner: the options it was started with (the stored rate may be left out, or given).
    assertUsageError(
        resume(stored),
        "nothing to resume in " + stored + ": " + stored.resolve("sensitivity.json"));
    assertUsageError(resume(stored, "--rate", "80"), "is complete (6 of 6 cells)");
    assertThat(sha256(stored.resolve("sensitivity.json"))).isEqualTo(before);
  }

  @Test
  void aCorruptStoredSweepIsRefusedNamingTheFile() throws Exception {
    Path stored = storedSweep();
    Path file = stored.resolve("sensitivity.json");
    String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.length() / 2));
    Cli.Outcome torn = resume(stored);
    assertUsageError(torn, "cannot resume: " + file + ": $: not valid JSON");
    // A cell the plan does not have is not a cell of this sweep.
    Files.writeString(file, text.replaceFirst("\"sequence\" : 0,", "\"sequence\" : 40,"));
    assertUsageError(resume(stored), "cannot resume: " + file + ": ");
    assertThat(Files.readString(file)).contains("\"sequence\" : 40,");
  }

  /**
   * A contrast run resumes as a contrast run with the parameters its contrast.json declared, and a
   * run without one as a run without one. The partner, the declared contrast, gets past the check
   * and is refused only because both arms are complete.
   */
  @Test
  void aContrastRunResumesOnlyWithItsOwnContrast() throws Exception {
    Path stored = storedSweep();
    DelaySweepReport base = Json.read(stored.resolve("sensitivity.json"), DelaySweepReport.class);
    Json.write(
        stored.resolve("contrast.json"),
        DelaySweepContrast.of(base.plan(), Map.of("audit_exchanges", "5"), base, null, null));
    Files.createDirectories(stored.resolve("contrast"));
    Files.copy(stored.resolve("sensitivity.json"), stored.resolve("contrast/sensitivity.json"));
    assertUsageError(resume(stored), "contrast: {audit_exchanges=5}, now {}");
    assertUsageError(
        resume(stored, "--contrast", "audit_exchanges=4"),
        "contrast: {audit_exchanges=5}, now {audit_exchanges=4}");
    assertUsageError(
        resume(stored, "--contrast", "audit_exchanges=5"),
        "nothing to resume in "
            + stored
            + ": "
            + stored.resolve("contrast").resolve("sensitivity.json")
            + " is complete (6 of 6 cells)");
  }

  /** The page tests' fixture in a directory of its own, as a finished sweep left it. */
  private Path storedSweep() throws Exception {
    Path stored = Files.createDirectories(dir.resolve("stored"));
    Files.copy(
        Path.of("src", "test", "resources", "sensitivity", "three-delays.json"),
        stored.resolve("sensitivity.json"));
    return stored;
  }

  /** {@code sensitivity --resume DIR} with the fixture's options, then {@code changes}. */
  private static Cli.Outcome resume(Path stored, String... changes) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "sensitivity",
                "--resume",
                stored.toString(),
                "--delays",
                "2,3,4",
                "--repeats",
                "2",
                "--duration",
                "1",
                "--seed",
                "3",
                "--identities",
                "3"));
    args.addAll(List.of(changes));
    // picocli refuses a single-valued option given twice: a change replaces the fixture's.
    for (int i = 0; i < changes.length; i += 2) {
      int first = args.indexOf(changes[i]);
      if (first >= 0 && first < args.size() - changes.length) {
        args.remove(first + 1);
        args.remove(first);
      }
    }
    return run(args.toArray(String[]::new));
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }
}
