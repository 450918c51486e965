package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of bad argument, for every command: exit 2, nothing on stdout, one line on stderr that
 * names the argument. All of them are refused before anything starts (no relay, no socket), so a
 * test that hung or connected would be a failure too.
 */
class UsageContractTest {
  @TempDir Path dir;

  /** What a command requires, so that an unknown option is its only problem. */
  static final Map<String, List<String>> REQUIRED =
      Map.of(
          "generate", List.of("--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=1"),
          "sweep", List.of("--rig", "r.json", "--json", "h.json", "--rates", "1"),
          "combine", List.of("a.json", "b.json"),
          "compare", List.of("a.json", "b.json", "--margin", "5%"),
          "merge", List.of("a.json", "--json", "o.json"),
          "report", List.of("r.json"));

  @Test
  void anUnknownOptionIsNamedByEveryCommand() {
    for (List<String> path : HelpContractTest.commandPaths()) {
      List<String> args = new ArrayList<>(path);
      args.addAll(REQUIRED.getOrDefault(path.get(path.size() - 1), List.of()));
      args.add("--no-such-option");
      assertUsageError(run(args.toArray(String[]::new)), "'--no-such-option'");
    }
  }

  @Test
  void anUnknownCommandIsNamed() {
    assertUsageError(run("sideways"), "'sideways'");
    assertUsageError(run("rig", "sideways"), "'sideways'");
  }

  @Test
  void experimentRefusesBadNumbersBeforeStartingAnything() {
    assertUsageError(run("experiment", "--warmup", "-1"), "--warmup");
    assertUsageError(run("experiment", "--warmup", "NaN"), "--warmup");
    assertUsageError(run("experiment", "--duration", "1e12"), "--duration");
    assertUsageError(run("experiment", "--duration", "Infinity"), "--duration");
    assertUsageError(run("experiment", "--duration", "0"), "--duration");
    assertUsageError(run("experiment", "--repeats", "0"), "--repeats");
    assertUsageError(run("experiment", "--repeats", "1e8"), "--repeats");
    assertUsageError(run("experiment", "--rates", "100,abc"), "--rates");
    assertUsageError(run("experiment", "--rates", "100,NaN"), "--rates");
    assertUsageError(run("experiment", "--rates", "1e308"), "--rates");
  }

  @Test
  void generatorsOutOfRangeIsNamedBeforeAnythingStarts() {
    assertUsageError(run("experiment", "--generators", "0"), "--generators");
    assertUsageError(run("experiment", "--generators", "257"), "--generators");
    assertUsageError(run("experiment", "--generators", "two"), "--generators");
    assertUsageError(
        run("sweep", "--rig", "r.json", "--json", "h.json", "--rates", "1", "--generators", "0"),
        "--generators");
  }

  @Test
  void quietWithVerboseIsRefusedOnOneLine() {
    assertUsageError(run("experiment", "--quiet", "--verbose"), "--quiet and --verbose");
    assertUsageError(
        run("sweep", "--rig", "r.json", "--json", "h.json", "--rates", "1", "--quiet", "--verbose"),
        "--quiet and --verbose");
    // Partner: --quiet alone is no problem; only the bad number is named.
    Cli.Outcome quiet = run("experiment", "--quiet", "--duration", "0");
    assertUsageError(quiet, "--duration");
    assertThat(quiet.errLines().get(0)).doesNotContain("--quiet");
  }

  @Test
  void identitiesOutOfRangeIsNamedBeforeAnythingStarts() {
    assertUsageError(run("experiment", "--identities", "0"), "--identities");
    assertUsageError(run("experiment", "--identities", "10001"), "--identities");
    assertUsageError(run("experiment", "--identities", "many"), "--identities");
    assertUsageError(
        run("sweep", "--rig", "r.json", "--json", "h.json", "--rates", "1", "--identities", "0"),
        "--identities");
    // Partner: a good value passes the option checks; what stops this run is the next problem.
    Cli.Outcome ok = run("experiment", "--identities", "500", "--repeats", "1");
    assertUsageError(ok, "--repeats");
    assertThat(ok.err()).doesNotContain("--identities");
    assertThat(run("experiment", "--help").out().replaceAll("\\s+", " "))
        .contains("--identities=N")
        .contains("the grid of --design identities (default: 8)");
  }

  @Test
  void experimentRefusesOneRepeatBeforeSweepingAnything() {
    Cli.Outcome o = run("experiment", "--repeats", "1", "--duration", "0");
    assertUsageError(o, "--repeats");
    assertThat(o.errLines().get(0)).contains("at least 2");
    // Mutant partner: two repeats are not the problem; only --duration is named.
    Cli.Outcome two = run("experiment", "--repeats", "2", "--duration", "0");
    assertUsageError(two, "--duration");
    assertThat(two.errLines().get(0)).doesNotContain("--repeats");
  }

  @Test
  void experimentRefusesABadParamOrProfile() {
    assertUsageError(run("experiment", "--param", "no_equals_sign"), "--param");
    assertUsageError(run("experiment", "--param", "colour=red"), "--param");
    assertUsageError(run("experiment", "--param", "port=99999"), "--param");
    assertUsageError(run("experiment", "--profile", "nosuch"), "--profile");
    assertUsageError(run("experiment", "--resume", "/nonexistent/run"), "--resume");
    assertUsageError(run("experiment", "--resume", ".", "--out", "x"), "--resume");
  }

  @Test
  void severalBadNumbersAreAllNamedOnOneLine() {
    Cli.Outcome o = run("experiment", "--warmup", "-1", "--duration", "1e12", "--repeats", "0");
    assertUsageError(o, "--warmup");
    assertThat(o.errLines().get(0)).contains("--duration", "--repeats");
  }

  @Test
  void modelBoundsEveryInput() {
    assertUsageError(run("model", "--repeats", "1e8"), "--repeats");
    assertUsageError(run("model", "--repeats", "100000000"), "--repeats");
    assertUsageError(run("model", "--rates", "1e308"), "--rates");
    assertUsageError(run("model", "--rates", "100,NaN"), "--rates");
    assertUsageError(run("model", "--duration", "-1"), "--duration");
    assertUsageError(run("model", "--worker-rate", "Infinity"), "--worker-rate");
    assertUsageError(run("model", "--worker-rate", "1e308"), "--worker-rate");
    assertUsageError(run("model", "--queue-capacity", "0"), "--queue-capacity");
    assertUsageError(run("model", "--gap", "-5"), "--gap");
    assertUsageError(run("model", "--rates", "500,250"), "rates_per_s");
  }

  @Test
  void sweepNamesMissingAndBadOptions() throws Exception {
    assertUsageError(run("sweep"), "--rig");
    Path rig = dir.resolve("rig.json");
    assertUsageError(
        run(
            "sweep",
            "--rig",
            rig.toString(),
            "--json",
            "h.json",
            "--rates",
            "100",
            "--warmup",
            "-1"),
        "--warmup");
    assertUsageError(
        run("sweep", "--rig", rig.toString(), "--json", "h.json", "--rates", "NaN"), "--rates");
    // A descriptor that is not there is bad input naming the file.
    assertUsageError(
        run("sweep", "--rig", rig.toString(), "--json", "h.json", "--rates", "100"),
        rig.toString());
    Files.writeString(rig, "{ not json");
    assertUsageError(
        run("sweep", "--rig", rig.toString(), "--json", "h.json", "--rates", "100"),
        rig.toString());
  }

  @Test
  void combineAndReportNameTheBadFile() throws Exception {
    assertUsageError(run("combine"), "HALF_A");
    assertUsageError(run("report"), "REPORT");
    Path missing = dir.resolve("missing.json");
    assertUsageError(run("combine", missing.toString(), missing.toString()), missing.toString());
    assertUsageError(run("report", missing.toString()), missing.toString());
    Path garbage = dir.resolve("garbage.json");
    Files.writeString(garbage, "[1, 2");
    assertUsageError(run("report", garbage.toString()), garbage.toString());
  }

  @Test
  void rigUpRefusesBadInputBeforeStartingAnything() {
    assertUsageError(run("rig", "up", "--profile", "nosuch"), "nosuch");
    assertUsageError(run("rig", "up", "--ready-timeout", "NaN"), "--ready-timeout");
    assertUsageError(run("rig", "up", "--ready-timeout", "-3"), "--ready-timeout");
    assertUsageError(
        run("rig", "up", "--param", "colour=red", "--state-dir", dir.toString()), "colour");
  }

  @Test
  void generateNamesEachBadArgument() {
    assertUsageError(run("generate"), "--duration");
    assertUsageError(run("generate", "--duration", "5"), "--target");
    assertUsageError(
        run("generate", "--duration", "NaN", "--target", "url=ws://127.0.0.1:9/,rate=5"),
        "--duration");
    assertUsageError(
        run("generate", "--duration", "5", "--target", "url=ws://127.0.0.1:9/,rate=Infinity"),
        "target 1: rate");
    assertUsageError(
        run("generate", "--duration", "5", "--target", "url=ws://127.0.0.1:9/,rate=5,colour=red"),
        "target 1: unknown key 'colour'");
    assertUsageError(
        run("generate", "--duration", "5", "--target", "url=ws://relay.example.org/,rate=5"),
        "--allow-remote");
    assertUsageError(
        run(
            "generate",
            "--duration",
            "5",
            "--target",
            "url=ws://127.0.0.1:9/,rate=5",
            "--sender-threads",
            "x"),
        "--sender-threads");
    assertUsageError(
        run(
            "generate",
            "--duration",
            "5",
            "--target",
            "url=ws://127.0.0.1:9/,rate=5",
            "--segment",
            "3/2"),
        "--segment");
    assertUsageError(
        run(
            "generate",
            "--duration",
            "5",
            "--target",
            "url=ws://127.0.0.1:9/,rate=5",
            "--source-addresses",
            "10.0.0.1"),
        "--source-addresses: source address 10.0.0.1 is not loopback");
  }

  @Test
  void aValidGenerateSpecIsNotAUsageError() throws Exception {
    // Mutant partner of the refusals above: the same command with good arguments gets past
    // parsing and fails only where nothing listens (exit 3).
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Cli.Outcome o =
        run(
            "generate",
            "--duration",
            "1s",
            "--connect-timeout",
            "2s",
            "--target",
            "url=ws://127.0.0.1:" + port + "/,rate=5",
            "--source-addresses",
            "127.0.0.2");
    assertThat(o.code()).as(o.toString()).isEqualTo(3);
    assertThat(o.err()).contains("connect failed").contains("from 127.0.0.2");
  }
}
