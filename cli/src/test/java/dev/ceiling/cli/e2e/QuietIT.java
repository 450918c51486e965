package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Main;
import dev.ceiling.cli.report.Answer;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.json.Json;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.ExperimentReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --quiet} as a script uses it: stdout holds the answer and nothing else, stderr no progress
 * and no file list. Short cells on the reference relay; the answer itself may be either way.
 */
class QuietIT {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  /** Only the answer on stdout; on stderr no progress line, no file list. */
  static void assertOnlyTheAnswer(Run r, String answer) {
    assertThat(r.out()).as("%s", r).isEqualTo(answer);
    assertThat(r.err())
        .as("%s", r)
        .doesNotContain("sweep '")
        .doesNotContain(" cell ")
        .doesNotContain("written to")
        .doesNotContain("rig up:");
  }

  /**
   * One rate, two repeats an arm (four cells, not the eight of two rates): what is checked is what
   * the command prints, the same whatever the answer, and the answer of one rate is an answer.
   */
  @Test
  void experimentQuietPrintsOnlyTheAnswer() throws Exception {
    Path out = dir.resolve("out");
    List<String> args =
        new ArrayList<>(
            List.of(
                "experiment",
                "--rates",
                "60",
                "--repeats",
                "2",
                "--duration",
                "1",
                "--warmup",
                "0.2",
                "--out",
                out.toString(),
                "--quiet"));
    Relays.freePorts(Map.of()).forEach((k, v) -> args.addAll(List.of("--param", k + "=" + v)));
    Run r = run(args);
    assertThat(r.code()).as("%s", r).isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
    ExperimentReport report = Json.read(out.resolve("report.json"), ExperimentReport.class);
    String answer = Answer.of(report).text();
    assertOnlyTheAnswer(r, answer);
    // Partner: the same run printed as without --quiet is more than the answer.
    Run loud = new Run(r.code(), Summary.text(report), "sweep 'on': 2 cells planned\n");
    assertThatThrownBy(() -> assertOnlyTheAnswer(loud, answer)).isInstanceOf(AssertionError.class);
  }

  @Test
  void sweepQuietPrintsOnlyItsAnswer() throws Exception {
    UpOptions up =
        UpOptions.of(Relays.reference(), "on", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(Relays.freePorts(Map.of("exchange_delay_ms", "0")));
    try (RigHandle rig = Rig.up(up)) {
      List<String> args =
          List.of(
              "sweep",
              "--rig",
              rig.descriptorFile().toString(),
              "--json",
              dir.resolve("half.json").toString(),
              "--rates",
              "40",
              "--repeats",
              "2",
              "--duration",
              "1",
              "--warmup",
              "0.2",
              "--quiet");
      Run r = run(args);
      assertThat(r.code()).as("%s", r).isEqualTo(ExitCode.NOT_ESTABLISHED);
      assertOnlyTheAnswer(
          r,
          "NOT ESTABLISHED: a half-run is a partial experiment; combine it with the other arm\n");
      assertThat(dir.resolve("half.json")).exists();
    }
  }
}
