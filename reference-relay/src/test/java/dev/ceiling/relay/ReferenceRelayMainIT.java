package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static dev.ceiling.relay.Fixtures.expectOk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.testing.ChildClasspath;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The relay as its own JVM, launched the way the rig launches it. */
class ReferenceRelayMainIT {
  static final Pattern READY =
      Pattern.compile(
          "READY port=(\\d+) db_port=(\\d+|NA) audit=(on|off) exchange_cost_ms=(\\d+\\.\\d+|NA)"
              + " predicted_worker_ceiling_per_s=(\\d+\\.\\d+|NA)"
              + " exchange_cost_hot_ms=(\\d+\\.\\d+|NA)"
              + " predicted_worker_ceiling_hot_per_s=(\\d+\\.\\d+|NA)"
              + " audit_exchanges=(\\d+) audit_workers=(\\d+) audit_lock=(global|per-community|none)"
              + " predicted_workers_ceiling_per_s=(\\d+\\.\\d+|NA)"
              + " predicted_lock_ceiling_per_s=(\\d+\\.\\d+|NA)");

  /** Parses the ready line; throws when it is not exactly the documented format. */
  static Matcher parseReady(String line) {
    Matcher m = READY.matcher(line == null ? "" : line);
    if (!m.matches()) {
      throw new AssertionError("not a ready line: " + line);
    }
    return m;
  }

  @Test
  void childJvmPrintsReadyServesAndStopsOnSigterm(@TempDir Path dir) throws Exception {
    Path stderr = dir.resolve("relay.err");
    List<String> cmd =
        ChildClasspath.command(
            ReferenceRelayMain.class.getName(),
            List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
            List.of(
                "--port",
                "0",
                "--db-port",
                "0",
                "--data-dir",
                dir.resolve("db").toString(),
                "--reset",
                "--rig-id",
                "it-" + ProcessHandle.current().pid(),
                "--audit",
                "on",
                "--calibration-runs",
                "20"));
    Path stdout = dir.resolve("relay.out");
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(stderr.toFile())
            .redirectOutput(stdout.toFile())
            .start();
    try {
      Matcher m = parseReady(awaitFirstLine(p, stdout, stderr));
      int port = Integer.parseInt(m.group(1));
      assertThat(m.group(3)).isEqualTo("on");
      assertThat(Double.parseDouble(m.group(5))).isPositive();
      // The defaults: six exchanges, one worker, no lock, so the workers' prediction is the
      // worker's and there is no lease to predict.
      assertThat(List.of(m.group(8), m.group(9), m.group(10))).containsExactly("6", "1", "none");
      assertThat(m.group(11)).isEqualTo(m.group(5));
      assertThat(m.group(12)).isEqualTo("NA");
      assertThat(Fixtures.get(port, "/health")).contains("\"audit\":\"on\"");
      try (RelayTestClient c = RelayTestClient.connect(port, "b.localhost")) {
        NostrEvent e = Fixtures.event(Keys.generate());
        c.send(Fixtures.frame(e));
        expectOk(c.next(WAIT), e.id(), true, "");
      }
      assertThat(
              Fixtures.metric(
                  Fixtures.get(port, "/metrics"),
                  "refrelay_events_accepted_total{community=\"b.localhost\"}"))
          .isEqualTo(1.0);
      assertThat(Fixtures.get(port, "/calibrate")).contains("\"predicted_worker_ceiling_per_s\"");

      p.destroy(); // SIGTERM
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(stderr)).contains("refrelay: stopping");
      assertThat(Files.readAllLines(stdout)).hasSize(1); // exactly one line on stdout
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void badFlagsExitTwoListingEveryProblem() throws Exception {
    List<String> cmd =
        ChildClasspath.command(
            ReferenceRelayMain.class.getName(),
            List.of(),
            List.of("--port", "-1", "--audit", "maybe", "--bogus", "1"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).isEqualTo(2);
      assertThat(text)
          .contains("refrelay: Unknown options: '--bogus', '1'")
          .contains(
              "refrelay: Invalid value for option '--audit': expected one of [on, off]"
                  + " (case-sensitive) but was 'maybe'")
          .contains("refrelay: port must be in [0, 65535], got -1")
          .doesNotContain("READY");
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
  }

  /**
   * {@code --help} as a user types it: usage on stdout naming every option with its default, exit
   * 0, nothing started. Its partner: a misspelt option exits 2 naming it, so the help path is not
   * simply "exit 0 whatever the arguments".
   */
  @Test
  void helpPrintsEveryOptionAndExitsZero() throws Exception {
    Process p =
        new ProcessBuilder(
                ChildClasspath.command(
                    ReferenceRelayMain.class.getName(), List.of(), List.of("--help")))
            .start();
    try {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).isEqualTo(0);
      assertThat(out).startsWith("Usage: refrelay").doesNotContain("READY port=");
      for (String flag :
          List.of(
              "--port",
              "--db-port",
              "--data-dir",
              "--audit",
              "--audit-queue-capacity",
              "--audit-exchange-delay-ms",
              "--limiter-events-per-sec",
              "--limiter-reject-mode",
              "--jdbc-url",
              "--calibration-runs",
              "--seed")) {
        assertThat(out).contains(flag + "=");
      }
      assertThat(out).contains("--reset[=").contains("(default: 1000)").contains("(default: 0).");
      assertThat(err).isEmpty();
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    Process bad =
        new ProcessBuilder(
                ChildClasspath.command(
                    ReferenceRelayMain.class.getName(), List.of(), List.of("--hlep")))
            .redirectErrorStream(true)
            .start();
    try {
      assertThat(bad.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String text = new String(bad.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(bad.exitValue()).isEqualTo(2);
      assertThat(text.lines()).containsExactly("refrelay: Unknown option: '--hlep'");
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void readyLineFormatCheckRejectsAMutantLine() {
    parseReady(
        "READY port=1 db_port=2 audit=off exchange_cost_ms=0.123 predicted_worker_ceiling_per_s=1.0"
            + " exchange_cost_hot_ms=0.100 predicted_worker_ceiling_hot_per_s=1.1"
            + " audit_exchanges=6 audit_workers=2 audit_lock=global"
            + " predicted_workers_ceiling_per_s=2.0 predicted_lock_ceiling_per_s=1.0");
    assertThatThrownBy(() -> parseReady("READY port=1 audit=off exchange_cost_ms=0.1"))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(
            () ->
                parseReady(
                    "READY port=1 db_port=2 audit=off exchange_cost_ms=0,123"
                        + " predicted_worker_ceiling_per_s=1,0"))
        .isInstanceOf(AssertionError.class);
  }

  /** Polls the child's stdout file for its first complete line; fails with the stderr tail. */
  static String awaitFirstLine(Process p, Path stdout, Path stderr) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      String text = Files.readString(stdout);
      int nl = text.indexOf('\n');
      if (nl >= 0) {
        return text.substring(0, nl);
      }
      if (!p.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "no ready line; alive=" + p.isAlive() + " stderr:\n" + Files.readString(stderr));
  }
}
