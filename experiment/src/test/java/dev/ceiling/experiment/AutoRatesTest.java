package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.RigDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The automatic grid from a relay_info ceiling; every ceiling that is no number is refused. */
class AutoRatesTest {
  static RigDescriptor withInfo(Map<String, String> relayInfo) {
    return TestDescriptors.attached("on", Map.of(), relayInfo);
  }

  static RigDescriptor ceiling(String v) {
    return withInfo(Map.of(Experiment.PREDICTED_CEILING_KEY, v));
  }

  @Test
  void multiplesOfTheCeilingRoundedDistinctAscendingAtLeastOne() throws Exception {
    assertThat(AutoRates.of(ceiling("1000"), List.of(1.8, 0.5, 1.3, 0.8)))
        .containsExactly(500.0, 800.0, 1300.0, 1800.0);
    assertThat(AutoRates.of(ceiling("333.3"), List.of(0.5, 0.5001))).containsExactly(167.0);
    assertThat(AutoRates.of(ceiling("1"), List.of(0.1))).containsExactly(1.0);
  }

  @Test
  void aMissingOrMeaninglessCeilingIsRefused() {
    for (RigDescriptor rig :
        List.of(
            withInfo(Map.of()),
            ceiling("fast"),
            ceiling("0"),
            ceiling("-5"),
            ceiling("NaN"),
            ceiling("Infinity"))) {
      assertThatThrownBy(() -> AutoRates.of(rig, List.of(0.5)))
          .isInstanceOf(AutoRates.MissingCeilingException.class)
          .hasMessageContaining("relay_info." + Experiment.PREDICTED_CEILING_KEY)
          .hasMessageEndingWith("; pass --rates");
    }
  }
}
