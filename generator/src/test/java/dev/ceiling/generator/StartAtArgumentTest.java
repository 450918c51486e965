package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code --start-at}: a bad value is exit 2 with one line naming the option. */
class StartAtArgumentTest {

  @Test
  void notAnInstant() {
    GeneratorMainTest.assertUsageError(
        GeneratorMainTest.run(
            "--duration", "1s", "--target", "url=ws://127.0.0.1:9/,rate=10", "--start-at", "soon"),
        "--start-at must be an ISO-8601 UTC instant like 2026-12-01T06:30:00Z, got 'soon'");
  }

  @Test
  void alreadyPassedIsRefusedBeforeConnecting() {
    GeneratorMainTest.Outcome o =
        GeneratorMainTest.run(
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

  @Test
  void parsesWhatDatePrints() {
    assertThat(StartInstant.parse(" 2026-12-01T06:30:00Z ").toString())
        .isEqualTo("2026-12-01T06:30:00Z");
  }
}
