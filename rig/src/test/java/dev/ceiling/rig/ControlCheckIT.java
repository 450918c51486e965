package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The control check run as a real child process: output and exit code, or why it did not finish.
 */
class ControlCheckIT {
  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @Test
  void itsTrimmedOutputAndExitCodeAreTheResult() throws Exception {
    assertThat(ControlCheck.run(List.of("sh", "-c", "echo ' audit=3 '; echo noise >&2"), GENEROUS))
        .isEqualTo(new ControlCheck.Result("audit=3", 0));
    assertThat(ControlCheck.run(List.of("sh", "-c", "echo no table; exit 4"), GENEROUS))
        .isEqualTo(new ControlCheck.Result("no table", 4));
  }

  @Test
  void aCommandThatCannotStartOrDoesNotFinishHasNoExitCode() throws Exception {
    ControlCheck.Result missing =
        ControlCheck.run(List.of("/nonexistent/ceiling-control-check"), GENEROUS);
    assertThat(missing.exitCode()).isNull();
    assertThat(missing.output()).startsWith("cannot run [/nonexistent/ceiling-control-check]");
    ControlCheck.Result slow = ControlCheck.run(List.of("sleep", "60"), Duration.ofMillis(200));
    assertThat(slow.exitCode()).isNull();
    assertThat(slow.output()).isEqualTo("[sleep, 60] did not finish within 200 ms");
  }

  @Test
  void aLongOutputIsCut() throws Exception {
    ControlCheck.Result r =
        ControlCheck.run(List.of("sh", "-c", "head -c 100000 /dev/zero | tr '\\000' x"), GENEROUS);
    assertThat(r.exitCode()).isZero();
    assertThat(r.output()).hasSize(ControlCheck.MAX_OUTPUT_CHARS);
  }
}
