package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.GeneratorMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The stand-alone main runs the same picocli command as {@code ceiling generate}. Bad specs: exit
 * 2, one line naming the field, before anything connects (nothing listens).
 */
class GenerateCommandTest {

  record Outcome(int code, String out, String err) {}

  static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        GeneratorMain.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static void assertUsageError(Outcome o, String line) {
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err())
        .isEqualTo("error: " + line + " (see 'generate --help')" + System.lineSeparator());
    assertThat(o.out()).isEmpty();
  }

  @Test
  void unknownKey() {
    assertUsageError(
        run("--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=10,colour=red"),
        "target 1: unknown key 'colour' (expected one of url, host, rate, conns, kind, tag,"
            + " identities, content, community)");
  }

  @Test
  void missingUrl() {
    assertUsageError(run("--duration", "1s", "--target", "rate=10"), "target 1: missing url");
  }

  @Test
  void rateNotPositiveOrNaN() {
    assertUsageError(
        run("--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=NaN"),
        "target 1: rate must be a finite number of events/s, got 'NaN'");
    assertUsageError(
        run("--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=0"),
        "target 1: rate must be a finite number > 0 events/s, got 0.0");
  }

  @Test
  void zeroConns() {
    assertUsageError(
        run("--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=5,conns=0"),
        "target 1: conns must be in [1, 10000], got 0");
  }

  @Test
  void malformedUrl() {
    assertUsageError(
        run("--duration", "1s", "--target", "url=http://127.0.0.1:9/,rate=5"),
        "target 1: url must be a ws:// or wss:// URL, got http://127.0.0.1:9/");
  }

  @Test
  void remoteTargetRefusedNamingTheHost() {
    assertUsageError(
        run("--duration", "1s", "--target", "url=ws://relay.example.org/,rate=5"),
        "target 1 host 'relay.example.org' is not loopback (127.0.0.0/8 or ::1 written as an"
            + " address, or localhost and names under .localhost; other names are not resolved);"
            + " refusing without"
            + " --allow-remote,"
            + " because a load generator must not be pointed at relays you don't run");
  }

  @Test
  void aNameThatOnlyContainsLocalhostIsRefusedOnOneLineNamingHostAndOption() {
    assertUsageError(
        run("--duration", "1s", "--target", "url=ws://localhost.evil.com:9/,rate=5"),
        "target 1 host 'localhost.evil.com' is not loopback (127.0.0.0/8 or ::1 written as an"
            + " address, or localhost and names under .localhost; other names are not resolved);"
            + " refusing without --allow-remote, because a load generator must not be pointed at"
            + " relays you don't run");
  }

  @Test
  void severalProblemsOnOneLine() {
    assertUsageError(
        run(
            "--duration",
            "1s",
            "--target",
            "url=ws://127.0.0.1:9/,rate=5,conns=0",
            "--segment",
            "2/2"),
        "--segment: segment index must be in [0, 2), got 2; target 1: conns must be in [1, 10000],"
            + " got 0");
  }

  @Test
  void missingRequiredOptionsAreNamedTogether() {
    assertUsageError(run(), "Missing required options: '--duration=DURATION', '--target=SPEC'");
  }

  @Test
  void badDurationsNameTheOption() {
    assertUsageError(
        run("--duration", "soon", "--target", "url=ws://127.0.0.1:9/,rate=5"),
        "Invalid value for option '--duration': 'soon' is not a duration like 10s, 500ms, 2m or"
            + " PT10S");
    assertUsageError(
        run("--duration", "NaN", "--target", "url=ws://127.0.0.1:9/,rate=5"),
        "Invalid value for option '--duration': 'NaN' is not a duration like 10s, 500ms, 2m or"
            + " PT10S");
    assertUsageError(
        run("--duration", "1e12", "--target", "url=ws://127.0.0.1:9/,rate=5"),
        "Invalid value for option '--duration': '1e12' must be a duration > 0 and at most 366"
            + " days");
    assertUsageError(
        run("--duration", "1s", "--warmup", "-1s", "--target", "url=ws://127.0.0.1:9/,rate=5"),
        "--warmup: '-1s' must be a duration > 0 and at most 366 days");
  }

  @Test
  void helpListsEveryOptionWithItsDefaultAndExitsZero() {
    Outcome o = run("--help");
    assertThat(o.code()).isZero();
    assertThat(o.err()).isEmpty();
    assertThat(o.out())
        .startsWith("Offer paced open-loop load")
        .contains("Usage: generate ")
        .contains(
            "--duration=DURATION",
            "--target=SPEC",
            "--warmup=DURATION",
            "(default: 0)",
            "--segment=i/N",
            "--lag-bound=DURATION",
            "(default: 10ms",
            "--grace-period=DURATION",
            "(default: 10s)",
            "--connect-timeout=DURATION",
            "--inflight-cap=EVENTS",
            "(default: 10000)",
            "--sender-threads=THREADS",
            "(default: 2)",
            "--max-frame-bytes=BYTES",
            "(default: 1048576)",
            "--allow-remote",
            "--source-addresses=ADDRESSES",
            "--json=FILE");
  }

  static Outcome withSources(String conns, String sources) {
    return run(
        "--duration",
        "1s",
        "--target",
        "url=ws://127.0.0.1:9/,rate=5,conns=" + conns,
        "--source-addresses",
        sources);
  }

  @Test
  void sourceAddressesMustBeLiteralsOrIncreasingRanges() {
    assertUsageError(
        withSources("2", "127.0.0.2,localhost"),
        "--source-addresses: 'localhost' is not an IP address literal");
    assertUsageError(
        withSources("2", "127.0.0.2,,127.0.0.3"),
        "--source-addresses: expected IP addresses or A-B ranges separated by commas, got an"
            + " empty item in '127.0.0.2,,127.0.0.3'");
    assertUsageError(
        withSources("8", "127.0.0.9-127.0.0.2"),
        "--source-addresses: range '127.0.0.9-127.0.0.2' must not decrease (A-B with A <= B)");
    assertUsageError(
        withSources("8", "127.0.0.0-127.255.255.255"),
        "--source-addresses: range '127.0.0.0-127.255.255.255' holds 16777216 addresses, more"
            + " than 256");
    assertUsageError(
        withSources("8", "::1-::2"),
        "--source-addresses: a range must join two IPv4 addresses, got '::1-::2'");
  }

  @Test
  void sourceAddressesMustBeLoopbackEachOnceAndNoMoreThanTheConnections() {
    assertUsageError(
        withSources("8", "127.0.0.2,192.168.1.5"),
        "--source-addresses: source address 192.168.1.5 is not loopback (127.0.0.0/8 or ::1);"
            + " load must stay on this machine");
    assertUsageError(
        withSources("8", "127.0.0.2-127.0.0.4,127.0.0.3"),
        "--source-addresses: source address 127.0.0.3 is listed more than once");
    assertUsageError(
        withSources("1", "127.0.0.2-127.0.0.9"),
        "--source-addresses: source addresses (8) must not outnumber the connections (1): an"
            + " address no connection uses is no source");
  }

  @Test
  void aSourceAddressProblemIsNamedWithTheOthersOnOneLine() {
    assertUsageError(
        run(
            "--duration",
            "1s",
            "--target",
            "url=ws://127.0.0.1:9/,rate=5,conns=0",
            "--source-addresses",
            "127.0.0.x"),
        "target 1: conns must be in [1, 10000], got 0; --source-addresses: '127.0.0.x' is not an"
            + " IP address literal");
  }

  @Test
  void aRemoteTargetIsNamedForTheSourceAddressesAndForAllowRemote() {
    assertUsageError(
        run(
            "--duration",
            "1s",
            "--target",
            "url=ws://relay.example.org/,rate=5",
            "--source-addresses",
            "127.0.0.2"),
        "--source-addresses: target 1 host 'relay.example.org' is not loopback, and a connection"
            + " bound to a loopback source address cannot reach it; target 1 host"
            + " 'relay.example.org' is not loopback (127.0.0.0/8 or ::1 written as an address, or"
            + " localhost and names under .localhost; other names are not resolved); refusing"
            + " without --allow-remote,"
            + " because a load generator must not be pointed at relays you don't run");
  }

  @Test
  void aGoodSourceAddressRangeReachesTheConnectStepAndNamesTheAddress() throws Exception {
    // Mutant partner of the refusals above: a valid range is not a usage error, and each
    // connection's failure names the address it was bound to.
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Outcome o =
        run(
            "--duration",
            "500ms",
            "--connect-timeout",
            "2s",
            "--target",
            "url=ws://127.0.0.1:" + port + "/,rate=5,conns=2",
            "--source-addresses",
            "127.0.0.2-127.0.0.3");
    assertThat(o.code()).isEqualTo(3);
    assertThat(o.err())
        .contains("error: connect failed before the clock started (2 of 2)")
        .contains("from 127.0.0.2: ")
        .contains("from 127.0.0.3: ");
  }

  @Test
  void aGoodSpecReachesTheConnectStepAndFailsThereWithExitThree() throws Exception {
    // Mutant partner of the usage errors: a valid spec is not a usage error.
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Outcome o =
        run(
            "--duration",
            "500ms",
            "--connect-timeout",
            "2s",
            "--target",
            "url=ws://127.0.0.1:" + port + "/,host=a.localhost:" + port + ",rate=5,tag=h:bench");
    assertThat(o.code()).isEqualTo(3);
    assertThat(o.err()).contains("error: connect failed before the clock started");
  }
}
