package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import org.junit.jupiter.api.Test;

/**
 * The identities a run signed with are part of its measurement settings, and so of its identity.
 */
class MeasurementIdentitiesTest {
  static String identityJson(String identitiesLine) throws Exception {
    String golden = GoldenFilesTest.golden("experiment-identity.json");
    String withLine = golden.replace("\"send_lag_bound_ms\" : 10.0,\n    \"identities\" : 8", "X");
    assertThat(withLine).as("the golden identity's measurement changed shape").contains("X");
    return withLine.replace("X", "\"send_lag_bound_ms\" : 10.0" + identitiesLine);
  }

  @Test
  void aDocumentWrittenBeforeIdentitiesWereRecordedReadsThemAsUnknown() throws Exception {
    ExperimentIdentity old = Json.read(identityJson(""), "old.json", ExperimentIdentity.class);
    assertThat(old.measurement().identities()).isNull();
    // Unknown is not the default: it differs from a run that recorded 8.
    assertThat(old.measurement()).isNotEqualTo(GoldenFixtures.identity().measurement());
    ExperimentIdentity now =
        Json.read(identityJson(",\n    \"identities\" : 8"), "now.json", ExperimentIdentity.class);
    assertThat(now).isEqualTo(GoldenFixtures.identity());
  }

  @Test
  void mutantIdentitiesBelowOneAreRefusedNamingTheField() throws Exception {
    assertThatThrownBy(
            () ->
                Json.read(
                    identityJson(",\n    \"identities\" : 0"),
                    "bad.json",
                    ExperimentIdentity.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("measurement.identities must be >= 1 or null, got 0");
  }
}
