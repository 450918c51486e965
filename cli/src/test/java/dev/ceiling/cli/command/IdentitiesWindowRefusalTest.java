package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defaults round on nostream's profile at its stock limits (the longest, 720 events per signing
 * key over an hour) with the default cells: refused before anything starts, as a usage error on one
 * line naming the window and the shortest cell window that covers it. The nostream directory named
 * does not exist: the refusal comes before the relay would be started.
 */
class IdentitiesWindowRefusalTest {
  @TempDir Path dir;

  @Test
  void stockNostreamLimitsRefuseFiveSecondCellsOnOneLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "experiment",
            "--design",
            "identities",
            "--profile",
            Path.of("..", "docs", "profiles", "nostream", "profile.json").toString(),
            "--param",
            "nostream_dir=" + dir.resolve("absent"),
            "--rates",
            "40",
            "--identities",
            "10,100",
            "--duration",
            "5",
            "--warmup",
            "2",
            "--out",
            dir.resolve("out").toString());
    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString().strip())
        .doesNotContain("\n")
        .contains("has a 3600 s window")
        .contains("covers only 7 s")
        .contains("the shortest cell that covers it has a window of 3598 s at this warm-up");
    assertThat(dir.resolve("out").resolve("rig")).doesNotExist();
  }
}
