package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertHelp;
import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
            "--contrast");
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
