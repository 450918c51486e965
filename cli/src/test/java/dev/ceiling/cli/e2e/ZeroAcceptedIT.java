package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.generator.testing.TestRelay;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.ProblemKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay that answers OK false to every event, run through every command a user would run on it:
 * {@code rig up --skip-relay}, {@code sweep} (journal and half-run) for both arms, {@code combine}
 * (report and HTML) and {@code report}. No cell has an accepted event; nothing may throw, every
 * file must be written, the verdict is not established, and every cell is excluded for its
 * rejections.
 */
class ZeroAcceptedIT {
  @TempDir Path dir;

  record Run(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  static Run ceiling(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  private Path profile(int port) throws Exception {
    String json =
        """
        {
          "name": "refuses-everything",
          "command": ["true", "${rig_id}"],
          "ports": {"port": %d},
          "readiness": "websocket",
          "contamination_evidence": "client",
          "treatment_arm": "on",
          "control_arm": "off",
          "arms": {"on": {"args": [], "env": {}}, "off": {"args": [], "env": {}}},
          "targets": [{"community": "main", "url": "ws://127.0.0.1:${port}/",
                       "tags": [], "kind": 1, "content_bytes": 64}]
        }
        """
            .formatted(port);
    Path p = dir.resolve("profile.json");
    Files.writeString(p, json, StandardCharsets.UTF_8);
    return p;
  }

  private Path sweep(Path profile, int port, String arm) {
    Path state = dir.resolve("rig-" + arm);
    Run up =
        ceiling(
            "rig",
            "up",
            "--profile",
            profile.toString(),
            "--arm",
            arm,
            "--state-dir",
            state.toString(),
            "--skip-relay",
            "--param",
            "port=" + port);
    assertThat(up.code()).as(up.toString()).isZero();
    Path half = dir.resolve("half-" + arm + ".json");
    Run sweep =
        ceiling(
            "sweep",
            "--profile",
            profile.toString(),
            "--rig",
            state.resolve("descriptor.json").toString(),
            "--json",
            half.toString(),
            "--rates",
            "20",
            "--duration",
            "1",
            "--warmup",
            "0.2",
            "--repeats",
            "2");
    // Not established (every cell excluded), never an exception.
    assertThat(sweep.code())
        .as(sweep.toString())
        .isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
    assertThat(sweep.err())
        .as(sweep.toString())
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
    assertThat(half).exists();
    assertThat(dir.resolve("half-" + arm + ".jsonl"))
        .as("the journal beside the half-run")
        .exists();
    return half;
  }

  @Test
  void aRelayThatAcceptsNothingGoesThroughEveryCommandWithoutAnException() throws Exception {
    TestRelay.Behavior refuse =
        new TestRelay.Behavior() {
          @Override
          public void onEvent(
              org.eclipse.jetty.websocket.api.Session s,
              com.fasterxml.jackson.databind.JsonNode event,
              int n,
              TestRelay relay) {
            TestRelay.ok(s, event.get("id").asText(), false, "blocked: this relay accepts nothing");
          }
        };
    try (TestRelay relay = new TestRelay(refuse)) {
      Path profile = profile(relay.port);
      Path on = sweep(profile, relay.port, "on");
      Path off = sweep(profile, relay.port, "off");
      HalfRun half = Json.read(on, HalfRun.class);
      assertThat(half.cells())
          .hasSize(2)
          .allSatisfy(
              c -> {
                assertThat(c.accepted()).isZero();
                assertThat(c.acceptedInWindow()).isZero();
                assertThat(c.rejected()).isPositive();
              });

      Path report = dir.resolve("report.json");
      Path html = dir.resolve("report.html");
      Run combine =
          ceiling(
              "combine",
              on.toString(),
              off.toString(),
              "--json",
              report.toString(),
              "--html",
              html.toString());
      assertThat(combine.code()).as(combine.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
      assertThat(combine.err()).as(combine.toString()).doesNotContain("Exception");
      assertThat(combine.out())
          .contains("[RELAY_REJECTIONS] the relay answered OK false to")
          .contains("verdict: NOT ESTABLISHED")
          .doesNotContain("NaN");
      ExperimentReport r = Json.read(report, ExperimentReport.class);
      assertThat(r.verdict().cells())
          .allSatisfy(
              a ->
                  assertThat(a.problems())
                      .extracting(p -> p.kind())
                      .contains(ProblemKind.RELAY_REJECTIONS));
      String page = Files.readString(html);
      assertThat(page).contains("NOT ESTABLISHED").doesNotContain("NaN").doesNotContain(">null<");

      Path html2 = dir.resolve("again.html");
      Run again = ceiling("report", report.toString(), "--html", html2.toString());
      assertThat(again.code()).as(again.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
      assertThat(again.err()).doesNotContain("Exception");
      assertThat(html2).exists();
    }
  }
}
