package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.os.JavaExecutable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay outlives the process that ran {@code up}: a separate JVM brings it up and exits; the
 * relay keeps serving; this JVM (another process, as the CLI's {@code down} would be) stops it
 * after the ownership check.
 */
class DetachedIT {
  @TempDir Path dir;

  @Test
  void relaySurvivesTheCliExitingAndAnotherProcessStopsIt() throws Exception {
    Path profile = dir.resolve("fake.json");
    Files.writeString(profile, Fakes.profileJson("ready", Fakes.freePort()));
    Path state = dir.resolve("state");
    Process cli =
        new ProcessBuilder(
                JavaExecutable.path(),
                "-cp",
                System.getProperty("java.class.path"),
                UpThenExit.class.getName(),
                profile.toString(),
                "off",
                state.toString(),
                "60")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    Long pid = null;
    try {
      String stdout = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(cli.exitValue()).as(stdout).isZero();
      RigDescriptor d = Json.read(stdout, "stdout", RigDescriptor.class);
      pid = d.relayPid();
      assertThat(d.arm()).isEqualTo("off");
      assertThat(d.relayInfo()).containsEntry("audit", "off");
      assertThat(cli.isAlive()).isFalse();
      assertThat(Fakes.alive(pid)).isTrue();
      assertThat(Lifecycle.healthy(d.healthUrl())).isTrue();
      assertThat(Rig.status(state).state()).isEqualTo(StatusResult.State.RUNNING_OURS);
      assertThat(Rig.down(state, Duration.ofSeconds(5)).outcome())
          .isEqualTo(DownResult.Outcome.STOPPED);
      assertThat(Fakes.alive(pid)).isFalse();
    } finally {
      cli.destroyForcibly();
      if (pid != null) {
        Fakes.kill(pid);
      }
    }
  }
}
