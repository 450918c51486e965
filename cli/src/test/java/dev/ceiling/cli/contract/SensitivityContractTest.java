package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertHelp;
import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling sensitivity} as a user runs it, without a relay: help, and each bad argument
 * refused before anything starts (exit 2, one line naming it). The happy path, which needs the
 * relay, is SensitivityCommandIT.
 */
class SensitivityContractTest {
  @TempDir Path dir;

  @Test
  void helpExitsZeroAndNamesTheOptions() {
    Cli.Outcome o = run("sensitivity", "--help");
    assertHelp(o, "ceiling sensitivity");
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
            "each in",
            "links.json",
            "a=2,b=3");
  }

  /** The built-in linked profile with a second upstream, 'cache', beside 'db'. */
  private Path twoLinks() throws Exception {
    String json;
    try (var in =
        getClass().getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")) {
      json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    String one = "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:${db_port}\"}]";
    assertThat(json).contains(one);
    return Files.writeString(
        dir.resolve("two-links.json"),
        json.replace(
            one,
            "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:${db_port}\"},"
                + " {\"name\": \"cache\", \"target\": \"127.0.0.1:${db_port}\"}]"));
  }

  @Test
  void countsPerLinkMustNameSweptLinks() throws Exception {
    String profile = twoLinks().toString();
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "2"),
        "--expect-round-trips: links [db, cache] are each swept; declare a count per link");
    assertUsageError(
        run("sensitivity", "--profile", profile, "--expect-round-trips", "db=2,redis=3"),
        "--expect-round-trips: link 'redis' is not an upstream of the profile: [db, cache]");
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
        run("sensitivity", "--profile", twoLinks().toString(), "--out", used.toString()),
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
    assertUsageError(run("sensitivity", "--profile", "reference"), "--link is required");
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
}
