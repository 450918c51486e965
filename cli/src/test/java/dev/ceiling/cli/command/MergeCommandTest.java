package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.generator.GeneratorReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ceiling merge} as a user runs it: help, each bad argument, the happy path's file. */
class MergeCommandTest {
  @TempDir Path dir;

  static final Instant START = Instant.parse("2026-12-01T06:30:00Z");

  record Outcome(int code, String out, String err) {}

  static synchronized Outcome run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.execute(args);
      return new Outcome(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  /** Segment i/n of a 100/s, 1 s schedule: every slot sent and accepted, scheduled = lagMs. */
  static GeneratorReport segment(int i, int n, Instant startAt, long lagUs, String bound)
      throws Exception {
    Histogram h = LatencySummary.newHistogram();
    long planned = 100 / n;
    h.recordValueWithCount(lagUs, planned);
    LatencySummary l = LatencySummary.of(h);
    Map<String, Object> fields = new HashMap<>();
    fields.put("slots_planned", planned);
    fields.put("slots_sent", planned);
    fields.put("attempted", planned);
    fields.put("accepted", planned);
    fields.put("accepted_in_window", planned);
    fields.put("accepted_in_window_per_s", (double) planned);
    fields.put("accepted_in_window_over_offered", 1.0);
    fields.put("send_lag", l);
    fields.put("service", l);
    fields.put("scheduled", l);
    fields.put("generator_bound", bound != null);
    fields.put("generator_bound_reason", bound);
    // Named fields over "nothing happened" (the sum of no parts), never 28 values in order.
    ObjectNode tree =
        Json.mapper()
            .valueToTree(
                GeneratorReport.Result.sum(
                    List.of(), List.of(), 100.0 / n, 1.0, LatencySummary::merge));
    fields.forEach((name, value) -> tree.set(name, Json.mapper().valueToTree(value)));
    GeneratorReport.Result r = Json.mapper().treeToValue(tree, GeneratorReport.Result.class);
    String seg = i + "/" + n;
    return new GeneratorReport(
        GeneratorReport.SCHEMA_VERSION,
        "generate 1.0 s, segment " + seg + ", cap 10000/conn, start at " + START + ": a at 100/s",
        seg,
        startAt,
        "wall: test",
        0.1,
        START,
        1.0,
        1.0,
        0.0,
        2,
        0,
        0.1,
        0.5,
        null,
        null,
        10.0,
        bound != null,
        bound,
        null,
        r,
        List.of(
            new GeneratorReport.TargetReport("a", "ws://127.0.0.1:9/", null, 100, 2, 2, 1.0, r)));
  }

  Path write(String name, GeneratorReport r) throws Exception {
    Path p = dir.resolve(name);
    Json.write(p, r);
    return p;
  }

  @Test
  void helpExitsZero() {
    Outcome o = run("merge", "--help");
    assertThat(o.code()).isZero();
    assertThat(o.out()).contains("Usage: ceiling merge", "SEG.json", "--json=OUT");
  }

  @Test
  void happyPathWritesOneMergedReportAndExitsZero() throws Exception {
    Path a = write("seg0.json", segment(0, 2, START, 1_000, null));
    Path b = write("seg1.json", segment(1, 2, START, 100_000, "send lag p99 100 ms > bound 1 ms"));
    Path out = dir.resolve("merged.json");
    Outcome o = run("merge", b.toString(), a.toString(), "--json", out.toString());
    assertThat(o.code()).isZero();
    assertThat(o.out()).startsWith("merged 2 segments into " + out + ": planned 100, sent 100");
    assertThat(o.err())
        .isEqualTo(
            "merge: GENERATOR BOUND: segment 1/2: send lag p99 100 ms > bound 1 ms"
                + System.lineSeparator());
    GeneratorReport m = Json.read(out, GeneratorReport.class);
    assertThat(m.segment()).isEqualTo("0/1");
    assertThat(m.aggregate().slotsPlanned()).isEqualTo(100);
    assertThat(m.aggregate().accepted()).isEqualTo(100);
    assertThat(m.aggregate().scheduled().count()).isEqualTo(100);
    // Half the slots at 1 ms, half at 100 ms: the p90 of the union is 100 ms (an average of the
    // segments' p90s would say 50.5 ms).
    assertThat(m.aggregate().scheduled().p90Ms()).isGreaterThan(99.0);
    assertThat(m.generatorBound()).isTrue();
  }

  @Test
  void missingJsonOptionIsExit2NamingIt() throws Exception {
    Path a = write("seg0.json", segment(0, 1, START, 1_000, null));
    Outcome o = run("merge", a.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines().findFirst().orElseThrow())
        .isEqualTo("error: Missing required option: '--json=OUT' (see 'ceiling merge --help')");
  }

  @Test
  void noSegmentsIsExit2NamingTheParameter() {
    Outcome o = run("merge", "--json", dir.resolve("m.json").toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines().findFirst().orElseThrow()).contains("SEG.json");
  }

  @Test
  void mismatchedSegmentsAreExit2WithEveryProblemOnOneLine() throws Exception {
    Path a = write("a.json", segment(0, 3, START, 1_000, null));
    Path b = write("b.json", segment(0, 3, null, 1_000, null));
    Path out = dir.resolve("m.json");
    Outcome o = run("merge", a.toString(), b.toString(), "--json", out.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines().count()).isEqualTo(1);
    assertThat(o.err())
        .startsWith("error: cannot merge: ")
        .contains(
            "segment 0/3 is given 2 times: " + a + ", " + b,
            "segment 1/3 is missing",
            "segment 2/3 is missing",
            b + " (segment 0/3) was not started with --start-at");
    assertThat(out).doesNotExist();
  }

  @Test
  void aCorruptReportIsExit2NamingTheFile() throws Exception {
    Path a = write("a.json", segment(0, 2, START, 1_000, null));
    Path b = dir.resolve("b.json");
    Files.writeString(b, "{\"config\": 1}");
    Outcome o =
        run("merge", a.toString(), b.toString(), "--json", dir.resolve("m.json").toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines().count()).isEqualTo(1);
    assertThat(o.err()).startsWith("error: cannot merge: " + b + ": ");
  }

  @Test
  void anUnwritableOutputIsExit3() throws Exception {
    Path a = write("a.json", segment(0, 1, START, 1_000, null));
    // A directory no file can be created in, even by root: the write fails when it is tried.
    Outcome o = run("merge", a.toString(), "--json", "/proc/ceiling-merge-test.json");
    assertThat(o.code()).isEqualTo(3);
    assertThat(o.err()).startsWith("error: cannot write ");
  }

  @Test
  void anOutputUnderARegularFileIsRefusedBeforeMerging() throws Exception {
    Path a = write("a.json", segment(0, 1, START, 1_000, null));
    // The parent of the output is a regular file: known before anything runs, so bad input.
    Outcome o = run("merge", a.toString(), "--json", a.resolve("m.json").toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("parent " + a + " is not a directory");
    // And the merged report may not replace one of its own segments.
    Outcome over = run("merge", a.toString(), "--json", a.toString());
    assertThat(over.code()).isEqualTo(2);
    assertThat(over.err()).contains("same file as SEG.json #1");
  }
}
