package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files a hostile or careless user names: an output equal to an input or to another output (by real
 * path), an output under a regular file, an input that is huge or a FIFO, and a plan whose event
 * count overflows. Each is refused before anything runs, exit 2 and one line, and the input
 * survives byte for byte; each has a partner that the same check lets through.
 */
class FilesContractTest {
  @TempDir Path dir;

  /** Two half-runs from the model, written as a user's files. */
  private Path[] halves() throws Exception {
    Path model = dir.resolve("model.json");
    assertThat(run("model", "--json", model.toString()).code()).isEqualTo(1);
    ExperimentReport m = Json.read(model, ExperimentReport.class);
    Path a = dir.resolve("half-on.json");
    Path b = dir.resolve("half-off.json");
    Json.write(a, m.treatment());
    Json.write(b, m.control());
    return new Path[] {a, b, model};
  }

  @Test
  void combineRefusesToWriteItsReportOverAnInput() throws Exception {
    Path[] h = halves();
    byte[] before = Files.readAllBytes(h[0]);
    // The same file by another spelling: ./dir/../dir/half-on.json.
    Path sameByAnotherName = dir.resolve("..").resolve(dir.getFileName()).resolve("half-on.json");
    Cli.Outcome o =
        run("combine", h[0].toString(), h[1].toString(), "--json", sameByAnotherName.toString());
    assertUsageError(o, "--json");
    assertThat(o.errLines().get(0)).contains("same file as HALF_A").contains("an input");
    assertThat(Files.readAllBytes(h[0])).isEqualTo(before);

    // Through a symbolic link too.
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), h[1]);
    assertUsageError(
        run("combine", h[0].toString(), h[1].toString(), "--html", link.toString()), "--html");

    // Partner: a fresh output path passes the check and is written.
    Path out = dir.resolve("report.json");
    Cli.Outcome ok = run("combine", h[0].toString(), h[1].toString(), "--json", out.toString());
    assertThat(ok.code()).as(ok.toString()).isIn(ExitCode.ESTABLISHED, ExitCode.NOT_ESTABLISHED);
    assertThat(Json.read(out, ExperimentReport.class).verdict()).isNotNull();
  }

  @Test
  void compareRefusesToWriteOverTheCandidate() throws Exception {
    Path[] h = halves();
    byte[] before = Files.readAllBytes(h[0]);
    Cli.Outcome o =
        run(
            "compare",
            h[0].toString(),
            h[0].toString(),
            "--margin",
            "10%",
            "--json",
            h[0].toString());
    assertUsageError(o, "--json");
    assertThat(o.errLines().get(0)).contains("an input");
    assertThat(Files.readAllBytes(h[0])).isEqualTo(before);
    // Partner: a fresh output path passes the check and is written.
    Path out = dir.resolve("comparison.json");
    Cli.Outcome ok =
        run(
            "compare",
            h[0].toString(),
            h[0].toString(),
            "--margin",
            "10%",
            "--json",
            out.toString());
    assertThat(ok.code()).as(ok.toString()).isIn(0, 1);
    assertThat(Files.exists(out)).isTrue();
  }

  @Test
  void reportRefusesToRenderHtmlOverItsOwnJson() throws Exception {
    Path model = halves()[2];
    byte[] before = Files.readAllBytes(model);
    Cli.Outcome o = run("report", model.toString(), "--html", model.toString());
    assertUsageError(o, "--html");
    assertThat(Files.readAllBytes(model)).isEqualTo(before);
    // Partner.
    Path html = dir.resolve("r.html");
    assertThat(run("report", model.toString(), "--html", html.toString()).code()).isIn(0, 1);
    assertThat(Files.readString(html)).contains("<figure class=\"chart\">");
  }

  @Test
  void combineRefusesTwoOutputsOnOneFile() throws Exception {
    Path[] h = halves();
    Path out = dir.resolve("same");
    Cli.Outcome o =
        run(
            "combine",
            h[0].toString(),
            h[1].toString(),
            "--json",
            out.toString(),
            "--html",
            out.toString());
    assertUsageError(o, "--html");
    assertThat(o.errLines().get(0)).contains("same file as --json").contains("another output");
    assertThat(out).doesNotExist();
  }

  @Test
  void sweepRefusesAHalfRunOverItsJournalBeforeReadingAnything() throws Exception {
    Path journal = dir.resolve("x.json");
    Files.writeString(journal, "{\"type\":\"header\"}\n");
    // The descriptor does not even exist: the file check comes before anything is read.
    Cli.Outcome o =
        run(
            "sweep",
            "--rig",
            dir.resolve("missing.json").toString(),
            "--json",
            journal.toString(),
            "--journal",
            journal.toString(),
            "--rates",
            "10");
    assertUsageError(o, "--journal");
    assertThat(Files.readString(journal)).isEqualTo("{\"type\":\"header\"}\n");
    // A resumed journal is the same: the half-run must not replace it.
    assertUsageError(
        run(
            "sweep",
            "--rig",
            dir.resolve("missing.json").toString(),
            "--json",
            journal.toString(),
            "--resume",
            journal.toString(),
            "--rates",
            "10"),
        "--resume");
    // Partner: distinct files get past the check and fail on the missing descriptor instead.
    Cli.Outcome ok =
        run(
            "sweep",
            "--rig",
            dir.resolve("missing.json").toString(),
            "--json",
            dir.resolve("h.json").toString(),
            "--journal",
            journal.toString(),
            "--rates",
            "10");
    assertUsageError(ok, "missing.json");
    assertThat(ok.err()).doesNotContain("same file");
  }

  @Test
  void anOutputUnderARegularFileSaysItsParentIsNotADirectory() throws Exception {
    Path afile = Files.writeString(dir.resolve("afile"), "x");
    Cli.Outcome o =
        run(
            "sweep",
            "--rig",
            dir.resolve("r.json").toString(),
            "--json",
            afile.resolve("h.json").toString(),
            "--rates",
            "10");
    assertUsageError(o, "--json");
    assertThat(o.errLines().get(0)).contains("parent " + afile + " is not a directory");
    // Partner: under a directory that does not exist yet, it is created, so no complaint.
    Cli.Outcome ok =
        run(
            "sweep",
            "--rig",
            dir.resolve("r.json").toString(),
            "--json",
            dir.resolve("new/h.json").toString(),
            "--rates",
            "10");
    assertThat(ok.err()).as(ok.toString()).doesNotContain("not a directory");
  }

  @Test
  void aPlanWhoseEventCountOverflowsIsRefusedBeforeARelayStarts() {
    // The relay is never started: the check runs before the profile is even resolved, so a
    // profile that does not exist is not what gets named.
    Cli.Outcome plan =
        run(
            "experiment",
            "--rates",
            "9000000,10000000",
            "--duration",
            "86400",
            "--warmup",
            "0",
            "--profile",
            dir.resolve("no-such-profile.json").toString());
    assertUsageError(plan, "--rates 10000000 with --duration 86400 and --warmup 0");
    assertThat(plan.errLines().get(0)).contains("864000000000 events").contains("at most 2^31");
    // Partner: a day at 20,000/s fits (1.7e9 events) and is refused for the missing profile.
    Cli.Outcome fits =
        run(
            "experiment",
            "--rates",
            "20000",
            "--duration",
            "86400",
            "--warmup",
            "0",
            "--profile",
            dir.resolve("no-such-profile.json").toString());
    assertUsageError(fits, "--profile");
    assertThat(fits.err()).doesNotContain("2^31");
  }

  @Test
  void generateRefusesAPlanThatCannotBePreSignedWithOneLine() {
    Cli.Outcome o =
        run("generate", "--duration", "10s", "--target", "url=ws://127.0.0.1:9/,rate=1e9");
    assertUsageError(o, "target 1 needs 9999999990 events (1000000000 events/s for 10 s");
    assertThat(o.errLines().get(0)).contains("at most 2^31");
    // Within 2^31 but beyond the heap: named as memory, still before anything is allocated.
    long heapMiB = Runtime.getRuntime().maxMemory() >> 20;
    double rate = Math.ceil(Runtime.getRuntime().maxMemory() / 512.0 / 10 * 2);
    if (rate * 10 < Integer.MAX_VALUE - 8) {
      Cli.Outcome mem =
          run(
              "generate",
              "--duration",
              "10s",
              "--target",
              "url=ws://127.0.0.1:9/,rate=" + (long) rate);
      assertUsageError(mem, "pre-signing");
      assertThat(mem.errLines().get(0)).contains(heapMiB + " MiB heap");
    }
    // Partner: a small plan gets past the check and fails only for want of a relay.
    Cli.Outcome small =
        run(
            "generate",
            "--duration",
            "1s",
            "--connect-timeout",
            "2s",
            "--target",
            "url=ws://127.0.0.1:9/,rate=10");
    assertThat(small.err()).doesNotContain("MiB heap").doesNotContain("2^31");
    assertThat(small.code()).isEqualTo(3);
    assertThat(small.err()).contains("Connection refused");
  }

  @Test
  void aHugeReportIsRefusedByItsSizeWithoutReadingIt() throws Exception {
    Path huge = dir.resolve("huge.json");
    try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
      f.setLength(3L << 30); // sparse: 3 GiB that take no disk
    }
    Cli.Outcome o = run("report", huge.toString());
    assertUsageError(o, huge.toString());
    assertThat(o.errLines().get(0)).contains("the file is 3221225472 bytes; at most");
    // Partner: a small file of the same name pattern is read (and refused for its content).
    Path small = Files.writeString(dir.resolve("small.json"), "{}");
    Cli.Outcome s = run("report", small.toString());
    assertUsageError(s, small.toString());
    assertThat(s.err()).doesNotContain("bytes; at most");
  }

  @Test
  void aFifoGivenAsAReportIsRefusedWithoutOpeningIt() throws Exception {
    Path fifo = dir.resolve("fifo.json");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mk.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(mk.exitValue()).isZero();
    // Opening a FIFO blocks until a writer comes; refusing it must not open it at all.
    Cli.Outcome o = run("report", fifo.toString());
    assertUsageError(o, fifo.toString());
    assertThat(o.errLines().get(0)).contains("not a regular file");
    Cli.Outcome p =
        run("rig", "up", "--profile", fifo.toString(), "--state-dir", dir.resolve("s").toString());
    assertUsageError(p, "not a regular file");
  }
}
