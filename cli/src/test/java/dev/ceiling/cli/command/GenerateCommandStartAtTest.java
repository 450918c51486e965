package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code --start-at}: a bad value is exit 2 with one line naming the option. */
class GenerateCommandStartAtTest {

  @Test
  void notAnInstant() {
    GenerateCommandTest.assertUsageError(
        GenerateCommandTest.run(
            "--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=10", "--start-at", "soon"),
        "--start-at must be an ISO-8601 UTC instant like 2026-12-01T06:30:00Z, got 'soon'");
  }

  @Test
  void alreadyPassedIsRefusedBeforeConnecting() {
    GenerateCommandTest.Outcome o =
        GenerateCommandTest.run(
            "--duration",
            "1s",
            "--target",
            "url=ws://127.0.0.1:9/,rate=10",
            "--start-at",
            "2020-01-01T00:00:00Z");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err())
        .contains("error: start at 2020-01-01T00:00:00Z has already passed")
        .endsWith(System.lineSeparator());
  }
}
