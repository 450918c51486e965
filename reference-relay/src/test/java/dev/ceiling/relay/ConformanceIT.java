package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static dev.ceiling.relay.Fixtures.expectOk;
import static dev.ceiling.relay.Fixtures.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** NIP-01 conformance of the reference relay (audit off, signatures checked). */
class ConformanceIT {
  private static ReferenceRelay relay;
  private static final Keys KEYS = Keys.generate();

  @BeforeAll
  static void start() throws Exception {
    relay =
        ReferenceRelay.start(
            Fixtures.config(
                "--audit", "off", "--limiter-events-per-sec", "1000", "--max-frame-bytes", "4096"));
  }

  @AfterAll
  static void stop() {
    if (relay != null) {
      relay.close();
    }
  }

  /**
   * The conformance script: good event -> OK true; bad signature -> OK false invalid:; duplicate ->
   * duplicate:; malformed JSON -> NOTICE and the connection stays up. Throws on any deviation.
   */
  static void conformance(ReferenceRelay r) throws Exception {
    try (RelayTestClient c = RelayTestClient.connect(r.port(), "a.localhost")) {
      NostrEvent good = Fixtures.event(KEYS);
      c.send(frame(good));
      expectOk(c.next(WAIT), good.id(), true, "");

      NostrEvent other = Fixtures.event(KEYS);
      c.send(Fixtures.badSignatureFrame(other));
      expectOk(c.next(WAIT), other.id(), false, "invalid:");

      c.send(frame(good));
      expectOk(c.next(WAIT), good.id(), true, "duplicate:");

      c.send("[\"EVENT\", {not json");
      JsonNode notice = c.next(WAIT);
      if (!notice.get(0).asText().equals("NOTICE")) {
        throw new AssertionError("malformed frame must get a NOTICE, got " + notice);
      }
      NostrEvent after = Fixtures.event(KEYS);
      c.send(frame(after));
      expectOk(c.next(WAIT), after.id(), true, "");
    }
  }

  @Test
  void conformsToNip01() throws Exception {
    conformance(relay);
  }

  @Test
  void mutantThatSkipsSignatureChecksFailsConformance() throws Exception {
    try (ReferenceRelay lax =
        ReferenceRelay.start(
            Fixtures.config(
                "--audit",
                "off",
                "--verify-signatures",
                "false",
                "--limiter-events-per-sec",
                "1000"))) {
      assertThatThrownBy(() -> conformance(lax))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("invalid:");
    }
  }

  @Test
  void forgedIdIsInvalidEvenWithoutSignatureChecks() throws Exception {
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      NostrEvent e = Fixtures.event(KEYS);
      NostrEvent tampered =
          new NostrEvent(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), "changed", e.sig());
      c.send(frame(tampered));
      expectOk(c.next(WAIT), e.id(), false, "invalid:");
    }
  }

  @Test
  void oversizeFrameClosesWith1009() throws Exception {
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      c.send("[\"NOTICE\",\"" + "x".repeat(5000) + "\"]");
      assertThat(c.awaitClosed(WAIT)).isTrue();
      assertThat(c.closeStatus()).isEqualTo(1009);
    }
    // Partner: a frame under the limit leaves the connection open.
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      c.send("[\"NOTICE\",\"" + "x".repeat(3000) + "\"]");
      assertThat(c.next(WAIT).get(0).asText()).isEqualTo("NOTICE");
      assertThat(c.awaitClosed(Duration.ofMillis(200))).isFalse();
    }
  }

  @Test
  void unknownHostGetsNoticeAndClose() throws Exception {
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "elsewhere.localhost")) {
      JsonNode n = c.next(WAIT);
      assertThat(n.get(0).asText()).isEqualTo("NOTICE");
      assertThat(n.get(1).asText()).contains("unknown community");
      assertThat(c.awaitClosed(WAIT)).isTrue();
    }
    try (ReferenceRelay withDefault =
            ReferenceRelay.start(
                Fixtures.config("--audit", "off", "--default-community", "a.localhost"));
        RelayTestClient c = RelayTestClient.connect(withDefault.port(), "elsewhere.localhost")) {
      NostrEvent e = Fixtures.event(KEYS);
      c.send(frame(e));
      expectOk(c.next(WAIT), e.id(), true, "");
      assertThat(
              Fixtures.metric(
                  withDefault, "refrelay_events_accepted_total{community=\"a.localhost\"}"))
          .isEqualTo(1.0);
    }
  }

  @Test
  void communitiesAreSeparateAndReqReadsBack() throws Exception {
    NostrEvent inB = Fixtures.event(KEYS);
    try (RelayTestClient b = RelayTestClient.connect(relay.port(), "b.localhost")) {
      b.send(frame(inB));
      expectOk(b.next(WAIT), inB.id(), true, "");
      b.send("[\"REQ\",\"s1\",{\"ids\":[\"" + inB.id() + "\"]}]");
      List<JsonNode> got = b.next(2, WAIT);
      assertThat(got.get(0).get(0).asText()).isEqualTo("EVENT");
      assertThat(NostrEvent.fromJsonNode(got.get(0).get(2))).isEqualTo(inB);
      assertThat(got.get(1).toString()).isEqualTo("[\"EOSE\",\"s1\"]");
    }
    try (RelayTestClient a = RelayTestClient.connect(relay.port(), "a.localhost")) {
      a.send("[\"REQ\",\"s2\",{\"ids\":[\"" + inB.id() + "\"]}]");
      assertThat(a.next(WAIT).toString()).isEqualTo("[\"EOSE\",\"s2\"]");
    }
  }

  @Test
  void healthAndMetricNamesAsExposed() throws Exception {
    assertThat(Fixtures.get(relay.port(), "/health")).contains("\"status\":\"ok\"");
    String m = Fixtures.get(relay.port(), "/metrics");
    for (String series :
        List.of(
            "refrelay_audit_log_seconds_count",
            "refrelay_audit_log_seconds_sum",
            "refrelay_audit_write_errors_total",
            "refrelay_audit_enqueue_errors_total",
            "refrelay_audit_queue_depth",
            "refrelay_audit_log_rows",
            "refrelay_admission_rejections_total{reason=\"quota\",transport=\"websocket\"}",
            "refrelay_admission_rejections_total{reason=\"quota_ip\",transport=\"websocket\"}",
            "refrelay_admission_rejections_total{reason=\"unavailable\",transport=\"websocket\"}",
            "refrelay_events_rejected_total{reason=\"invalid\"}",
            "refrelay_ok_dropped_total",
            "refrelay_audit_exchange_cost_seconds",
            "refrelay_audit_predicted_ceiling_per_second",
            "refrelay_audit_predicted_workers_ceiling_per_second",
            "refrelay_audit_predicted_lock_ceiling_per_second",
            "refrelay_audit_lock_wait_seconds_count{community=\"a.localhost\"}",
            "refrelay_audit_lock_held_seconds_sum{community=\"b.localhost\"}")) {
      Fixtures.metric(m, series);
    }
    assertThat(Fixtures.metric(m, "refrelay_audit_predicted_ceiling_per_second")).isPositive();
    assertThatThrownBy(() -> Fixtures.metric(m, "refrelay_audit_log_seconds_total"))
        .isInstanceOf(AssertionError.class);
  }
}
