package dev.ceiling.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one credential rule: user-info and credential-like query values go, everything else stays.
 * Every redacting case has a partner that must come through unchanged, so a rule that mangled all
 * URLs (or none) fails here.
 */
class RedactionTest {
  @Test
  void userInfoIsRedactedAndTheRestOfTheUrlKept() {
    assertThat(Redaction.redact("http://user:pass@127.0.0.1:8080/metrics"))
        .isEqualTo("http://redacted@127.0.0.1:8080/metrics");
    assertThat(Redaction.redact("ws://token@[::1]:7/")).isEqualTo("ws://redacted@[::1]:7/");
    // Partner: no user-info, nothing changes.
    assertThat(Redaction.redact("http://127.0.0.1:8080/metrics?x=1"))
        .isEqualTo("http://127.0.0.1:8080/metrics?x=1");
  }

  @Test
  void credentialLikeParametersLoseTheirValuesOnly() {
    assertThat(Redaction.redact("ws://127.0.0.1:1/?auth=abc&room=a&API_KEY=k1;access_token=t"))
        .isEqualTo("ws://127.0.0.1:1/?auth=redacted&room=a&API_KEY=redacted;access_token=redacted");
    assertThat(Redaction.redact("jdbc:postgresql://127.0.0.1/db?user=u&password=p"))
        .isEqualTo("jdbc:postgresql://127.0.0.1/db?user=u&password=redacted");
    // Partner: ordinary parameters are kept.
    assertThat(Redaction.redact("ws://127.0.0.1:1/?room=a&limit=10"))
        .isEqualTo("ws://127.0.0.1:1/?room=a&limit=10");
  }

  @Test
  void urlsInsideFreeTextAreRedactedWhereTheyStand() {
    assertThat(
            Redaction.redact(
                "target 1: connect to ws://u:hunter2@127.0.0.1:9/?token=x failed: refused"))
        .isEqualTo(
            "target 1: connect to ws://redacted@127.0.0.1:9/?token=redacted failed: refused");
    // Partner: an e-mail address or a ratio is not a URL.
    assertThat(Redaction.redact("mail ops@example.org; acc/off 0.97 @ 40/s"))
        .isEqualTo("mail ops@example.org; acc/off 0.97 @ 40/s");
    assertThat(Redaction.redact((String) null)).isNull();
  }

  @Test
  void aDescriptorIsRedactedInEveryUrlAndEqualWhenThereIsNothingToRedact() {
    RigDescriptor clean = descriptor("http://127.0.0.1:1/health", "ws://127.0.0.1:1/");
    assertThat(Redaction.redact(clean)).isEqualTo(clean);
    RigDescriptor dirty =
        descriptor("http://a:b@127.0.0.1:1/health", "ws://127.0.0.1:1/?auth=s3cr3t");
    RigDescriptor r = Redaction.redact(dirty);
    assertThat(r.healthUrl()).isEqualTo("http://redacted@127.0.0.1:1/health");
    assertThat(r.targets().get(0).url()).isEqualTo("ws://127.0.0.1:1/?auth=redacted");
    assertThat(r.relayCommand()).containsExactly("relay", "--db", "jdbc:h2://redacted@127.0.0.1/x");
    assertThat(r.controlCheck()).containsExactly("count", "postgres://redacted@127.0.0.1/x");
    assertThat(r.relayInfo()).containsEntry("parameter.url", "ws://127.0.0.1:1/?auth=redacted");
  }

  private static RigDescriptor descriptor(String health, String target) {
    boolean dirty = !health.equals("http://127.0.0.1:1/health");
    return new RigDescriptor(
        2,
        "ceiling-rig-x",
        "p",
        "on",
        12L,
        Instant.parse("2026-12-01T00:00:00Z"),
        List.of("relay", "--db", dirty ? "jdbc:h2://sa:pw@127.0.0.1/x" : "jdbc:h2://127.0.0.1/x"),
        "/tmp/relay.log",
        health,
        null,
        RigDescriptor.EVIDENCE_CLIENT,
        List.of(new Target("a", target, null, List.of(), 1, 64)),
        Map.of(),
        null,
        false,
        Map.of(),
        List.of(),
        Map.of("parameter.url", target),
        null,
        null,
        null,
        "test",
        null,
        List.of("count", dirty ? "postgres://u:pw@127.0.0.1/x" : "postgres://127.0.0.1/x"));
  }
}
