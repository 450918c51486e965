package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The calibration's two loops on the real relay and database. Each check counts runs or compares
 * two figures of one calibration, never a wall time, so a busy machine cannot decide it.
 */
class CalibrationIT {
  /**
   * With a delay, the cold loop runs the exchanges with it, as the worker does: every step's mean
   * includes its 40 ms (the old calibration timed the steps without it, at about 0.1 ms each, and
   * fails that check). At 40 ms, 20 runs take 4.8 s, past the 3 s limit: the loop stops at its
   * minimum of 20 runs, not the 200 asked (without the limit it would time 200, for 48 s).
   */
  @Test
  void aLongDelayIsTimedColdAndStopsAtTheMinimumRuns() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            ReferenceRelayConfig.fromArgs(
                new String[] {
                  "--audit", "on", "--calibration-runs", "200", "--audit-exchange-delay-ms", "40"
                }))) {
      Calibration c = relay.calibration();
      assertThat(c.runs()).isEqualTo(Calibration.MIN_TIMED_RUNS);
      assertThat(c.delaySeconds()).isEqualTo(0.040);
      double ceilingWithoutCost = 1.0 / (AuditWriter.EXCHANGES * 0.040);
      assertThat(c.predictedCeilingPerSecond()).isLessThan(ceilingWithoutCost);
      assertThat(c.predictedHotCeilingPerSecond()).isLessThan(ceilingWithoutCost);
      // Each step's mean includes its 40 ms delay: the cold loop really ran with it.
      assertThat(c.stepCostSeconds()).allSatisfy(s -> assertThat(s).isGreaterThanOrEqualTo(0.040));
      assertThat(Fixtures.get(relay.port(), "/calibrate"))
          .contains("\"exchange_cost_hot_ms\"")
          .contains("\"predicted_worker_ceiling_hot_per_s\"");
    }
  }

  /** Without a delay the two loops are one: the same runs, the same cost, the same prediction. */
  @Test
  void withoutADelayHotAndColdAreTheSameLoop() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            ReferenceRelayConfig.fromArgs(
                new String[] {"--audit", "on", "--calibration-runs", "50"}))) {
      Calibration c = relay.calibration();
      assertThat(c.runs()).isEqualTo(50);
      assertThat(c.exchangeCostSeconds()).isEqualTo(c.hotExchangeCostSeconds());
      assertThat(c.predictedCeilingPerSecond()).isEqualTo(c.predictedHotCeilingPerSecond());
    }
  }
}
