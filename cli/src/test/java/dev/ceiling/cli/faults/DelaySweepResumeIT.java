package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Main;
import dev.ceiling.cli.contract.ShortSweep;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling sensitivity --resume} on the real reference relay through the proxy on its H2
 * link: a sweep of 2 delays x 2 repeats is killed (SIGKILL: no hook, no teardown, its relay left
 * running) once a first cell is in the file, resumed in a child that is killed again once it has
 * added a cell, and resumed to the end in this JVM. The file ends with every planned cell exactly
 * once, the plan as the first session wrote it, every cell an earlier session wrote unchanged, and
 * three sessions that say which cells ran in which. Partners, each failing: a relay started with
 * another parameter is refused once up (exit 2) with the file byte for byte as it was, and a
 * complete sweep is not resumed again. The no-relay refusals (another plan, a corrupt file, the
 * flags) are DelaySweepContractTest's.
 *
 * <p>Four relay starts, two child JVMs, four planned cells of 1 s and two cut short: 94 and 97 s on
 * this 2-core VM at loads of 9 to 13, beside other builds.
 */
class DelaySweepResumeIT {
  @TempDir Path dir;
  Child child;

  @AfterEach
  void cleanUp() throws Exception {
    Child.endAll(child, dir);
  }

  @Test
  void aKilledSweepResumedTwiceHoldsEveryPlannedCellOnceAndKeepsTheOldOnes() throws Exception {
    Path out = dir.resolve("out");
    Path file = out.resolve("sensitivity.json");
    int port = FreePorts.one();
    int dbPort = FreePorts.one();
    List<String> options = options(port, dbPort, 20);

    child = Child.start(dir, "first", concat(options, "--out", out.toString()));
    JsonNode first = killOnceMoreThan(file, 0);
    int n1 = first.get("cells").size();
    assertThat(first.get("sessions")).hasSize(1);

    // Partner: the relay of a resume must be the stored one; another queue is another system.
    // Refused once up (the interrupted session's relay is stopped first), the file untouched.
    byte[] before = Files.readAllBytes(file);
    Outcome other = run(concat(options(port, dbPort, 30), "--resume", out.toString()));
    assertThat(other.code()).as(other.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(other.err())
        .as(other.toString())
        .contains(
            "the relay now differs from the one in its sensitivity.json: queueCapacity:"
                + " sensitivity.json 20, this relay 30; relayParameters:",
            "queue_capacity=30");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    System.out.println("DelaySweepResumeIT: the other relay: " + other.err());

    child = Child.start(dir, "second", concat(options, "--resume", out.toString()));
    JsonNode second = killOnceMoreThan(file, n1);
    assertThat(second.get("plan")).isEqualTo(first.get("plan"));
    assertOldCellsKept(first, second);

    Outcome last = run(concat(options, "--resume", out.toString()));
    assertThat(last.code())
        .as(last.toString())
        .isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
    System.out.println("DelaySweepResumeIT: the last session: " + last);
    assertThat(last.err()).contains("resuming: ");
    JsonNode end = Json.mapper().readTree(Files.readString(file));
    assertThat(end.get("complete").asBoolean()).as(last.toString()).isTrue();
    assertThat(end.get("plan")).isEqualTo(first.get("plan"));
    assertOldCellsKept(second, end);
    List<Integer> planned = new ArrayList<>();
    end.get("plan").get("cells").forEach(c -> planned.add(c.get("sequence").asInt()));
    List<Integer> measured = new ArrayList<>();
    end.get("cells").forEach(c -> measured.add(c.get("planned").get("sequence").asInt()));
    assertThat(measured).as("every planned cell once, in the plan's order").isEqualTo(planned);
    List<Integer> bySession = new ArrayList<>();
    assertThat(end.get("sessions")).hasSize(3);
    for (JsonNode s : end.get("sessions")) {
      assertThat(s.get("cells")).as("each session measured a cell").isNotEmpty();
      s.get("cells").forEach(c -> bySession.add(c.asInt()));
    }
    assertThat(bySession).isEqualTo(planned);
    assertThat(new TreeSet<>(List.of(rigIds(end)))).as("a relay of its own per session").hasSize(3);

    // Partner: a complete sweep has nothing to resume.
    before = Files.readAllBytes(file);
    Outcome again = run(concat(options, "--resume", out.toString()));
    assertThat(again.code()).as(again.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(again.err()).contains("nothing to resume in " + out, "is complete (4 of 4 cells)");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  /**
   * The options of every session. The ports too: a community's host header carries its port, and
   * the identity compares the hosts.
   */
  private static List<String> options(int port, int dbPort, int queueCapacity) {
    return ShortSweep.args(2, port, dbPort, queueCapacity, "--seed", "5");
  }

  /** Waits until the child's file holds more than {@code cells} cells, then SIGKILLs it. */
  private JsonNode killOnceMoreThan(Path file, int cells) throws Exception {
    assertThat(child.awaitCondition(() -> cells(file) > cells, Duration.ofMinutes(3)))
        .as("a cell was added\n%s", child)
        .isTrue();
    child.process.destroyForcibly();
    assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    JsonNode tree = Json.mapper().readTree(Files.readString(file));
    assertThat(tree.get("complete").asBoolean()).as(child.toString()).isFalse();
    return tree;
  }

  /** Every cell of {@code earlier} is in {@code later}, in the same place, unchanged. */
  private static void assertOldCellsKept(JsonNode earlier, JsonNode later) {
    JsonNode old = earlier.get("cells");
    assertThat(later.get("cells").size()).isGreaterThan(old.size());
    for (int i = 0; i < old.size(); i++) {
      assertThat(later.get("cells").get(i)).as("cell %d", i).isEqualTo(old.get(i));
    }
    for (int i = 0; i < earlier.get("sessions").size(); i++) {
      JsonNode s = earlier.get("sessions").get(i);
      JsonNode kept = later.get("sessions").get(i);
      assertThat(kept.get("rig_id")).isEqualTo(s.get("rig_id"));
      assertThat(kept.get("cells")).isEqualTo(s.get("cells"));
    }
  }

  private static String[] rigIds(JsonNode report) {
    List<String> out = new ArrayList<>();
    report.get("sessions").forEach(s -> out.add(s.get("rig_id").asText()));
    return out.toArray(String[]::new);
  }

  /** Cells in the file so far (it is replaced whole, atomically, after every cell). */
  private static int cells(Path file) {
    if (!Files.exists(file)) {
      return 0;
    }
    try {
      JsonNode cells = Json.mapper().readTree(Files.readString(file)).get("cells");
      return cells == null ? 0 : cells.size();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Outcome(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  private static Outcome run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    return new Outcome(code, out.toString(), err.toString());
  }

  private static List<String> concat(List<String> options, String... more) {
    List<String> out = new ArrayList<>(options);
    out.addAll(Arrays.asList(more));
    return out;
  }
}
