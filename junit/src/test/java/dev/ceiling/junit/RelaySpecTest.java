package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelaySpecTest {

  @WithRelay(params = {"exchange_delay_ms=0.5", "port = 47300"})
  static class Annotated {}

  @WithRelay(
      params = {"novalue=", "=1", "x=1", "x=2"},
      readyTimeoutSeconds = 0)
  static class Broken {}

  @Test
  void theAnnotationBecomesASpec() {
    RelaySpec s = RelaySpec.from(Annotated.class.getAnnotation(WithRelay.class));
    assertThat(s)
        .isEqualTo(
            new RelaySpec(
                "reference",
                null,
                Map.of("exchange_delay_ms", "0.5", "port", "47300"),
                true,
                Duration.ofSeconds(60),
                true,
                RelaySpec.DEFAULT_STATE_ROOT));
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(() -> RelaySpec.from(Broken.class.getAnnotation(WithRelay.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "params entries must look like name=value, got 'novalue='; params entries must look"
                + " like name=value, got '=1'; params must name each parameter once, got 'x'"
                + " twice");
    assertThatThrownBy(
            () -> new RelaySpec(" ", " ", Map.of(), true, Duration.ofMillis(10), true, null))
        .hasMessage(
            "profile must be a built-in name or a file path, got ' '; arm must be null (the"
                + " treatment arm) or non-blank, got ' '; ready_timeout must be >= 1 s, got"
                + " PT0.01S; state_root must not be null");
  }
}
