package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A profile's declared admission limits: typed data, read strictly, every problem at once. */
class AdmissionLimitsProfileTest {
  private static final String PROFILE =
      """
      {
        "name": "limits",
        "command": ["relay", "--rig-id", "${rig_id}", "--port", "${port}"],
        "ports": {"port": 47100},
        "readiness": "websocket",
        "contamination_evidence": "client",
        "treatment_arm": "on",
        "control_arm": "off",
        "arms": {"on": {"args": ["--on"]}, "off": {"args": ["--off"]}},
        "targets": [{"community": "a", "url": "ws://127.0.0.1:${port}/"}],
        "admission_limits": %s
      }
      """;

  private static RelayProfile read(String limits) throws RigException {
    return ProfileReader.read(PROFILE.formatted(limits), "limits.json", null);
  }

  @Test
  void eachLimitIsReadTypedAndDescribesItselfInOneLine() throws RigException {
    RelayProfile p =
        read(
            """
            [{"per": "signing_key", "counts": "events", "limit": 12, "window_seconds": 60,
              "kinds": [1, [40, 49]], "refusal": {"answer": "ok_false", "prefix": "rate-limited:"}},
             {"per": "source_address", "counts": "connections", "limit": 12, "window_seconds": 0.5,
              "refusal": {"answer": "connection_closed"}}]
            """);
    assertThat(p.admissionLimits()).hasSize(2);
    AdmissionLimit key = p.admissionLimits().get(0);
    assertThat(key.per()).isEqualTo(AdmissionLimit.Per.SIGNING_KEY);
    assertThat(key.window()).isEqualTo(Duration.ofSeconds(60));
    assertThat(key.kinds())
        .containsExactly(new AdmissionLimit.KindRange(1, 1), new AdmissionLimit.KindRange(40, 49));
    assertThat(key.describe())
        .isEqualTo(
            "12 events per signing key over 60 s (kinds 1, 40-49); refused by OK false"
                + " \"rate-limited:...\"");
    assertThat(p.admissionLimits().get(1).describe())
        .isEqualTo(
            "12 connections per source address over 0.5 s; refused by the connection closed");
  }

  /** Without the section a profile declares none. */
  @Test
  void noSectionMeansNoDeclaredLimits() throws RigException {
    assertThat(read("null").admissionLimits()).isEmpty();
  }

  /** Partner: every problem of every entry is named at once, with its JSON path. */
  @Test
  void everyProblemIsNamedAtOnce() {
    assertThatThrownBy(
            () ->
                read(
                    """
                    [{"per": "pubkey", "counts": "messages", "limit": 0, "window_seconds": -1,
                      "kinds": [1], "refusal": {"answer": "notice"}, "colour": "red"},
                     {"per": "connection", "counts": "connections", "limit": 3,
                      "window_seconds": 1, "kinds": [[9, 2]],
                      "refusal": {"answer": "connection_closed", "prefix": "bye"}}]
                    """))
        .isInstanceOfSatisfying(
            RigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "$.admission_limits[0].colour: unknown field; expected one of [counts,"
                            + " kinds, limit, per, refusal, window_seconds]",
                        "$.admission_limits[0].per: expected one of [signing_key, source_address,"
                            + " connection], got \"pubkey\"",
                        "$.admission_limits[0].limit: expected an integer >= 1, got 0",
                        "$.admission_limits[0].window_seconds: expected a number of seconds > 0,"
                            + " got -1",
                        "$.admission_limits[0].kinds: only a limit that counts events applies to"
                            + " kinds; this one counts messages",
                        "$.admission_limits[0].refusal.prefix: a refusal by notice needs the prefix"
                            + " of its message",
                        "$.admission_limits[1].kinds[0]: a kind range must lie in [0, 65535] with"
                            + " first <= last, got [9, 2]",
                        "$.admission_limits[1]: a budget of connections per connection counts"
                            + " nothing; use source_address",
                        "$.admission_limits[1].refusal.prefix: a refusal by connection_closed has"
                            + " no message, so no prefix, got \"bye\""));
  }

  /** nostream's stock limits, as its profile declares them for the defaults round. */
  @Test
  void theNostreamProfileDeclaresItsStockLimits() throws RigException {
    RelayProfile p = RelayProfile.load(Path.of("../docs/profiles/nostream/profile.json"));
    assertThat(p.admissionLimits())
        .extracting(AdmissionLimit::describe)
        .containsExactly(
            "6 events per signing key over 60 s (kinds 0, 3, 40, 41); refused by OK false"
                + " \"rate-limited:...\"",
            "12 events per signing key over 60 s (kinds 1, 2, 4, 42); refused by OK false"
                + " \"rate-limited:...\"",
            "30 events per signing key over 60 s (kinds 5-7, 43-49); refused by OK false"
                + " \"rate-limited:...\"",
            "24 events per signing key over 60 s (kinds 10000-19999, 30000-39999); refused by OK"
                + " false \"rate-limited:...\"",
            "60 events per signing key over 60 s (kinds 20000-29999); refused by OK false"
                + " \"rate-limited:...\"",
            "720 events per signing key over 3600 s; refused by OK false \"rate-limited:...\"",
            "240 messages per source address over 60 s; refused by NOTICE \"rate limited...\"",
            "12 connections per source address over 1 s; refused by the connection closed",
            "48 connections per source address over 60 s; refused by the connection closed");
  }
}
