package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.generator.GeneratorReport;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code scripts/ceiling} launcher in a subprocess, as a user runs it: {@code rig up} of
 * the reference relay on free loopback ports, {@code generate} against it, {@code rig status},
 * {@code rig down}. CEILING_CLASSPATH points the launcher at this build's classes (the jar is made
 * after the tests). Rates are tiny (20 events/s) and deadlines generous: a busy machine passes.
 */
class LauncherIT {
  static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  static final Path LAUNCHER = ROOT.resolve("scripts/ceiling");

  @TempDir Path dir;

  record Run(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  Run ceiling(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().put("CEILING_CLASSPATH", System.getProperty("java.class.path"));
    // The rig launches the reference relay's own jar; the build tells the tests where it is.
    pb.environment()
        .put("CEILING_REFERENCE_RELAY_JAR", System.getProperty("ceiling.reference-relay.jar"));
    Process p = pb.start();
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("ceiling " + String.join(" ", args) + " did not finish in 180 s");
    }
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /**
   * The summary reaches stdout when the process exits. Its mutant partner is the launcher's main
   * without the final flush: the summary is written with print(), and picocli's writer flushes on
   * println only, so the table and the verdict line were lost at System.exit.
   */
  @Test
  void theSummaryReachesStdoutBeforeTheProcessExits() throws Exception {
    Run model = ceiling("model", "--json", dir.resolve("model.json").toString());
    assertThat(model.code()).as(model.toString()).isEqualTo(1);
    assertThat(model.out()).as(model.toString()).contains("offered/s", "verdict:");
  }

  @Test
  void helpAndAUsageErrorThroughTheLauncher() throws Exception {
    Run help = ceiling("--help");
    assertThat(help.code()).as(help.toString()).isZero();
    assertThat(help.out()).contains("Usage: ceiling ");
    assertThat(help.err()).isEmpty();

    Run genHelp = ceiling("generate", "--help");
    assertThat(genHelp.code()).as(genHelp.toString()).isZero();
    assertThat(genHelp.out()).contains("Usage: ceiling generate ", "--target=SPEC");

    // The bug this replaces: every generate invocation said "--duration is required".
    Run bad = ceiling("generate", "--duration", "5");
    assertThat(bad.code()).as(bad.toString()).isEqualTo(2);
    assertThat(bad.err().lines().toList())
        .singleElement()
        .satisfies(l -> assertThat(l).contains("--target").doesNotContain("--duration"));
  }

  @Test
  void rigUpGenerateStatusDownAgainstTheReferenceRelay() throws Exception {
    Path state = dir.resolve("rig");
    Run up =
        ceiling(
            "rig",
            "up",
            "--state-dir",
            state.toString(),
            "--param",
            "port=" + FreePorts.one(),
            "--param",
            "db_port=" + FreePorts.one(),
            "--ready-timeout",
            "120");
    try {
      assertThat(up.code()).as(up.toString()).isZero();
      assertThat(up.err()).doesNotContain("SLF4J");
      RigDescriptor rig = Json.read(up.out(), "rig up's stdout", RigDescriptor.class);
      Target t = rig.targets().get(0);

      Run status = ceiling("rig", "status", "--state-dir", state.toString());
      assertThat(status.code()).as(status.toString()).isZero();
      assertThat(status.out()).contains("RUNNING_OURS");

      Path report = dir.resolve("generate.json");
      Run gen =
          ceiling(
              "generate",
              "--duration",
              "3s",
              "--lag-bound",
              "200ms",
              "--grace-period",
              "30s",
              "--json",
              report.toString(),
              "--target",
              "url="
                  + t.url()
                  + ",host="
                  + t.hostHeader()
                  + ",tag="
                  + String.join(":", t.tags().get(0))
                  + ",rate=20,conns=2");
      assertThat(gen.code()).as(gen.toString()).isZero();
      assertThat(gen.out()).isEmpty();
      assertThat(gen.err()).contains("generate: ").doesNotContain("SLF4J");
      GeneratorReport r = Json.read(report, GeneratorReport.class);
      assertThat(r.aggregate().slotsPlanned()).isEqualTo(60);
      // On a saturated box a slot may miss its send deadline; what was sent must be accepted.
      assertThat(r.aggregate().attempted()).isPositive();
      assertThat(r.aggregate().accepted()).isEqualTo(r.aggregate().attempted());
    } finally {
      Run down = ceiling("rig", "down", "--state-dir", state.toString());
      assertThat(down.code()).as(down.toString()).isZero();
    }
    Run after = ceiling("rig", "status", "--state-dir", state.toString());
    assertThat(after.out()).doesNotContain("RUNNING_OURS");
  }

  static {
    if (!new File(LAUNCHER.toString()).isFile()) {
      throw new IllegalStateException("no launcher at " + LAUNCHER);
    }
  }
}
