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

  /**
   * With a hot ceiling the rates below 1x rest on the range's low end and the others on its high
   * end, so each "above" rate lies above the whole predicted range and each "below" rate below it
   * (the run that needed it: cold 160.7/s, hot above it, worker 223.3/s, and 1.3 x cold = 209/s).
   * The hot figure may be the lower one; an unreadable one leaves the ceiling alone.
   */
  @Test
  void ratesBelowOneRestOnTheRangesLowEndAndTheOthersOnItsHighEnd() throws Exception {
    RigDescriptor range =
        withInfo(
            Map.of(
                Experiment.PREDICTED_CEILING_KEY, "160.7",
                Experiment.PREDICTED_CEILING_HOT_KEY, "240"));
    List<Double> rates = AutoRates.of(range, List.of(0.5, 0.8, 1.3, 1.8));
    assertThat(rates).containsExactly(80.0, 129.0, 312.0, 432.0);
    assertThat(rates.get(2)).as("1.3x lies above the measured 223.3/s").isGreaterThan(223.3);
    RigDescriptor reversed =
        withInfo(
            Map.of(
                Experiment.PREDICTED_CEILING_KEY, "240",
                Experiment.PREDICTED_CEILING_HOT_KEY, "160.7"));
    assertThat(AutoRates.of(reversed, List.of(0.5, 1.0))).containsExactly(80.0, 240.0);
    for (String bad : List.of("fast", "0", "-1", "NaN", "Infinity")) {
      RigDescriptor rig =
          withInfo(
              Map.of(
                  Experiment.PREDICTED_CEILING_KEY,
                  "200",
                  Experiment.PREDICTED_CEILING_HOT_KEY,
                  bad));
      assertThat(AutoRates.of(rig, List.of(0.5, 1.5))).as(bad).containsExactly(100.0, 300.0);
    }
    assertThat(AutoRates.range(range).text()).isEqualTo("160.7-240.0/s");
    assertThat(AutoRates.range(ceiling("200")).text()).isEqualTo("200.0/s");
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
    // relay_info no READY line could hold (a value with a space) names that, not an exception.
    assertThatThrownBy(() -> AutoRates.of(ceiling("2 00"), List.of(0.5)))
        .isInstanceOf(AutoRates.MissingCeilingException.class)
        .hasMessageContaining("relay_info as a READY line's fields")
        .hasMessageEndingWith("; pass --rates");
  }
}
