package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GET /calibrate's document: the keys the experiment and the docs name, rounded as stated. */
class CalibrationJsonTest {
  @Test
  void theDocumentCarriesEveryKeyRoundedAsStated() throws Exception {
    Calibration c =
        new Calibration(
            20,
            0.000_412_34,
            0.000_201_26,
            List.of(1e-3, 2e-3, 3e-3, 4e-3, 5e-3, 6.000_06e-3),
            5e-4);
    String json = c.toJson();
    assertThat(json).doesNotContain("\n");
    JsonNode n = new ObjectMapper().readTree(json);
    assertThat(n.get("runs").asInt()).isEqualTo(20);
    assertThat(n.get("exchange_cost_ms").decimalValue()).isEqualByComparingTo("0.4123");
    assertThat(n.get("exchange_cost_hot_ms").decimalValue()).isEqualByComparingTo("0.2013");
    assertThat(n.get("delay_ms").decimalValue()).isEqualByComparingTo("0.5000");
    // 1 / (6 x (0.5 ms + 0.41234 ms)) = 182.680.../s; hot: 1 / (6 x 0.70126 ms) = 237.667.../s
    assertThat(n.get("predicted_worker_ceiling_per_s").decimalValue())
        .isEqualByComparingTo("182.68");
    assertThat(n.get("predicted_worker_ceiling_hot_per_s").decimalValue())
        .isEqualByComparingTo("237.67");
    assertThat(n.get("step_cost_ms").get("unlock").decimalValue()).isEqualByComparingTo("6.0001");
    assertThat(n.get("step_cost_ms").size()).isEqualTo(6);
  }

  /** The READY line of the same calibration keeps its own precision (3 and 1 decimals). */
  @Test
  void theReadyLineTextsKeepTheirPrecision() {
    Calibration c =
        new Calibration(
            20, 0.000_412_34, 0.000_201_26, List.of(1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3), 5e-4);
    assertThat(c.exchangeCostMillisText()).isEqualTo("0.412");
    assertThat(c.predictedCeilingText()).isEqualTo("182.7");
  }
}
