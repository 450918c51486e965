package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueCapacityOverrideTest {
  @Test
  void overrideSetsTheEffectiveCapacity() throws Exception {
    RelayProfile p = RelayProfile.builtIn("reference");
    UpOptions o = UpOptions.of(p, "on", Path.of("x")).withOverrides(Map.of("queue_capacity", "64"));
    assertThat(o.effectiveQueueCapacity()).isEqualTo(64);
    assertThat(UpOptions.of(p, "on", Path.of("x")).effectiveQueueCapacity())
        .isEqualTo(p.queueCapacity());
  }

  @Test
  void aBadCapacityIsRefusedNamingTheValue() throws Exception {
    RelayProfile p = RelayProfile.builtIn("reference");
    assertThatThrownBy(
            () -> UpOptions.of(p, "on", Path.of("x")).withOverrides(Map.of("queue_capacity", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("override queue_capacity must be an integer >= 1, got 0");
  }
}
