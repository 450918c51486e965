package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import dev.ceiling.cli.report.Dossier;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweepFile;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (a real SIGINT to a real {@code ceiling explain} child) during the A/B, once a first cell
 * is in its journal: exit 130, the dossier written and saying the A/B was not finished and the
 * delay sweep not started, no relay left; then {@code --resume DIR} continues the A/B from its
 * journals (no journalled cell measured again: the journal only grows) and runs the sweep.
 */
class ExplainCtrlCIT {
  @TempDir Path dir;
  Child child;

  @AfterEach
  void cleanUp() throws Exception {
    Child.endAll(child, dir);
  }

  @Test
  void ctrlCStopsWritesTheDossierAndResumeContinues() throws Exception {
    Path out = dir.resolve("out");
    List<String> args = args(oneCommunity(dir));
    List<String> first = new ArrayList<>(args);
    first.addAll(List.of("--out", out.toString()));
    child = Child.start(dir, "explain", first);
    Path journal = out.resolve("ab").resolve("journal-on.jsonl");
    assertThat(child.awaitCondition(() -> lines(journal) >= 2, Duration.ofMinutes(3)))
        .as("a first cell was journalled\n%s", child)
        .isTrue();
    child.interrupt();
    assertThat(child.await(Duration.ofSeconds(150))).as(child.toString()).isEqualTo(130);
    assertThat(alive(out)).as("processes of this run still alive").isEmpty();

    Dossier d = Json.read(out.resolve(Dossier.FILE), Dossier.class);
    assertThat(d.rounds().get(0).status())
        .as(child.toString())
        .isEqualTo(Dossier.Status.NOT_FINISHED);
    assertThat(d.rounds().get(1).status()).isEqualTo(Dossier.Status.NOT_FINISHED);
    assertThat(d.answers()).contains("Delay sweep on link 'builtin': not finished: not started");
    assertThat(out.resolve("delay-sweep-builtin")).doesNotExist();
    List<String> before = Files.readAllLines(journal);

    List<String> resume = new ArrayList<>(args);
    resume.addAll(List.of("--resume", out.toString()));
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(o, true), new PrintWriter(e, true), resume.toArray(String[]::new));
    String shown = "exit " + code + "\n" + o + "\n" + e;
    System.out.println("ExplainCtrlCIT resume:\n" + shown);
    assertThat(code).as(shown).isIn(0, 1);
    assertThat(e.toString()).contains("continues its journals");
    // Every journalled line is still there, first and in order: nothing measured twice.
    assertThat(Files.readAllLines(journal).subList(0, before.size())).isEqualTo(before);
    assertThat(DelaySweepFile.read(out.resolve("delay-sweep-builtin/sensitivity.json")).complete())
        .as(shown)
        .isTrue();
    Dossier again = Json.read(out.resolve(Dossier.FILE), Dossier.class);
    assertThat(again.rounds().get(0).status())
        .isIn(Dossier.Status.ESTABLISHED, Dossier.Status.NOT_ESTABLISHED);
    assertThat(again.rounds().get(1).status())
        .isIn(Dossier.Status.ESTABLISHED, Dossier.Status.NOT_ESTABLISHED);
  }

  /** Two rounds: the A/B (3 repeats, so a Ctrl-C lands mid-arm) and the sweep on 'builtin'. */
  private static List<String> args(Path profile) throws java.io.IOException {
    return List.of(
        "explain",
        "--profile",
        profile.toString(),
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
        "3",
        "--duration",
        "1",
        "--warmup",
        "0.5",
        "--delays",
        "2,4",
        "--seed",
        "7");
  }

  /** The reference profile with one community: the lock round cannot run, so two rounds. */
  private static Path oneCommunity(Path dir) throws java.io.IOException {
    String json;
    try (InputStream in =
        ExplainCtrlCIT.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String second =
        ",\n    {\"community\": \"b\", \"url\": \"ws://127.0.0.1:${port}/\", \"host_header\":"
            + " \"b.localhost:${port}\", \"tags\": [[\"t\", \"ceiling\"]], \"kind\": 1,"
            + " \"content_bytes\": 64}";
    assertThat(json).contains(second);
    return Files.writeString(dir.resolve("one-community.json"), json.replace(second, ""));
  }

  private static int lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  /** The live processes whose command line names {@code dir}: a relay this run left. */
  private static List<String> alive(Path dir) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .map(p -> p.info().commandLine().orElse(""))
        .filter(c -> c.contains(dir.toString()))
        .toList();
  }
}
