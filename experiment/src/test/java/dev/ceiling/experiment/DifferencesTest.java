package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The experiment compares the control arm's identity with the treatment's before sweeping the
 * control: every differing field is listed, by name, with both values.
 */
class DifferencesTest {
  static ExperimentIdentity id(String binary, Map<String, String> params, double graceS) {
    return new ExperimentIdentity(
        "p",
        "on",
        "off",
        List.of(100.0, 200.0),
        1,
        3,
        "ascending",
        null,
        List.of("h"),
        Map.of("limit", "10"),
        100,
        "g",
        "rev",
        null,
        binary,
        params,
        new MeasurementSettings(2, graceS, 10));
  }

  @Test
  void everyFieldInWhichTheControlDiffersIsListed() {
    ExperimentIdentity treatment = id("sha256:a", Map.of("exchange_delay_ms", "0.5"), 2);
    ExperimentIdentity control = id("sha256:b", Map.of("exchange_delay_ms", "0"), 5);
    assertThat(Differences.armsDiffer(treatment, control))
        .containsExactly(
            "relayBinaryDigest: treatment sha256:a, control sha256:b",
            "relayParameters: treatment {exchange_delay_ms=0.5}, control {exchange_delay_ms=0}",
            "measurement: treatment MeasurementSettings[warmupS=2.0, graceS=2.0,"
                + " sendLagBoundMs=10.0, identities=null, sourceAddresses=null], control MeasurementSettings[warmupS=2.0,"
                + " graceS=5.0, sendLagBoundMs=10.0, identities=null, sourceAddresses=null]");
    // Mutant partner: the same relay in both arms passes.
    assertThat(
            Differences.armsDiffer(
                treatment, id("sha256:a", Map.of("exchange_delay_ms", "0.5"), 2)))
        .isEmpty();
  }

  @Test
  void theSweepsOptionsEnterTheIdentity() {
    SweepOptions o =
        SweepOptions.defaults(java.nio.file.Path.of("j.jsonl"))
            .withWarmup(java.time.Duration.ofMillis(1500))
            .withGrace(java.time.Duration.ofSeconds(3))
            .withSendLagBound(java.time.Duration.ofMillis(20));
    assertThat(o.measurement())
        .isEqualTo(new MeasurementSettings(1.5, 3, 20, SweepOptions.DEFAULT_IDENTITIES));
    assertThat(o.withIdentities(100).measurement())
        .isEqualTo(new MeasurementSettings(1.5, 3, 20, 100));
  }

  /** A journal signed with 8 identities is not resumed with 100: the identity says which. */
  @Test
  void identitiesThatDifferAreNamedAsAMeasurementDifference() {
    SweepOptions o = SweepOptions.defaults(java.nio.file.Path.of("j.jsonl"));
    ExperimentIdentity eight = id("sha256:a", Map.of(), 2).withMeasurement(o.measurement());
    ExperimentIdentity hundred =
        id("sha256:a", Map.of(), 2).withMeasurement(o.withIdentities(100).measurement());
    assertThat(Differences.differences(eight, hundred))
        .singleElement()
        .asString()
        .startsWith("measurement: journal")
        .contains("identities=8, sourceAddresses=null]", "identities=100, sourceAddresses=null]");
    // Partner: the same identities are no difference.
    assertThat(Differences.differences(eight, eight)).isEmpty();
  }
}
