package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartInstantTest {

  @Test
  void parsesWhatDatePrints() {
    assertThat(StartInstant.parse(" 2026-12-01T06:30:00Z ").toString())
        .isEqualTo("2026-12-01T06:30:00Z");
  }
}
