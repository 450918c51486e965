package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.verdict.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's path on the Node relay: {@code ceiling experiment --profile
 * docs/profiles/nostr-relay-js/profile.json} with the default {@code --rates auto}, which places
 * the grid from the {@code predicted_worker_ceiling_per_s} the relay prints on its READY line.
 * Cells are cut short here (the full default run is in docs/RIG.md's walkthrough); what is tested
 * is that the documented command chooses its rates, runs both arms and writes its reports, and that
 * a relay that prints no prediction has its ceiling measured first by the ramp (ramp.json), never a
 * usage error.
 */
class NostrRelayJsAutoRatesIT {
  @TempDir Path dir;

  @BeforeAll
  static void nodeAndPackagesArePresent() throws Exception {
    NostrRelayJsIT.nodeAndPackagesArePresent();
  }

  record Run(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  private Run experiment(Path profile) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "experiment",
            "--profile",
            profile.toString(),
            "--param",
            "port=" + FreePorts.one(),
            "--duration",
            "0.5",
            "--warmup",
            "0",
            "--repeats",
            "2",
            "--out",
            dir.resolve("out").toString());
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void theDocumentedCommandChoosesItsRatesFromTheRelaysPrediction() throws Exception {
    Run r = experiment(NostrRelayJsIT.PROFILE_DIR.resolve("profile.json"));
    // Cells this short need not separate (exit 0 or 1), but the run must be whole: rates chosen,
    // both arms swept, both reports written; never bad input (2) or infrastructure (3).
    assertThat(r.code()).as(r.toString()).isIn(0, 1);
    assertThat(r.err()).as(r.toString()).contains("rates chosen from the relay's own calibration");
    assertThat(r.out())
        .as(r.toString())
        .contains("verdict: ")
        .contains("note: " + Verdict.CLIENT_EVIDENCE_NOTE)
        .contains("note: " + Verdict.CLIENT_NO_WORKER_RATE_NOTE);
    assertThat(dir.resolve("out/report.json")).exists();
    assertThat(dir.resolve("out/report.html")).exists();
    assertThat(Files.readString(dir.resolve("out/report.json")))
        .contains("\"contamination_evidence\" : \"client\"");
  }

  @Test
  void aRelayThatPredictsNothingIsRampedFirstAndRunsToAVerdict() throws Exception {
    // Partner of the test above: the same relay and profile, but the rig looks for a READY line
    // the relay never prints, so relay_info carries no prediction: the rates must come from the
    // ramp, not from a calibration, and the run must still end with a verdict code.
    Path profile = dir.resolve("no-prediction.json");
    String json =
        Files.readString(NostrRelayJsIT.PROFILE_DIR.resolve("profile.json"))
            .replace("${profile_dir}", NostrRelayJsIT.PROFILE_DIR.toAbsolutePath().toString())
            .replace("\"ready_line_prefix\": \"READY \"", "\"ready_line_prefix\": \"NEVER \"");
    assertThat(json).contains("NEVER ");
    Files.writeString(profile, json);
    Run r = experiment(profile);
    assertThat(r.code()).as(r.toString()).isIn(0, 1);
    assertThat(r.out() + r.err())
        .as(r.toString())
        .contains("the relay predicts no ceiling: finding it first by a ramp")
        .contains("rates chosen from the ceiling the ramp measured");
    assertThat(r.out() + r.err()).as(r.toString()).doesNotContain("rates chosen from the relay's");
    assertThat(dir.resolve("out/ramp.json")).exists();
  }
}
