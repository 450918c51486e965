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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each fault flag moves its documented metric; a fault-free relay moves none of them. */
class FaultsIT {
  private static final Keys KEYS = Keys.generate();
  private static final String UNAVAILABLE =
      "refrelay_admission_rejections_total{reason=\"unavailable\",transport=\"websocket\"}";

  private static List<NostrEvent> sendAll(RelayTestClient c, int n) {
    List<NostrEvent> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      NostrEvent e = Fixtures.event(KEYS);
      out.add(e);
      c.send(frame(e));
    }
    return out;
  }

  /** Throws unless the series reads exactly {@code expected}. */
  static void expectMetric(ReferenceRelay relay, String series, double expected) {
    double v = Fixtures.metric(relay, series);
    if (v != expected) {
      throw new AssertionError(series + " must be " + expected + ", got " + v);
    }
  }

  @Test
  void limiterUnavailableCountsUnavailableRejections() throws Exception {
    try (ReferenceRelay relay =
            ReferenceRelay.start(
                Fixtures.config("--audit", "off", "--fault-limiter-unavailable-p", "1"));
        RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      sendAll(c, 3);
      for (JsonNode n : c.next(3, WAIT)) {
        assertThat(n.get(0).asText()).isEqualTo("NOTICE");
      }
      expectMetric(relay, UNAVAILABLE, 3);
    }
  }

  @Test
  void auditWriteErrorsAreCountedAndNoRowIsWritten() throws Exception {
    try (ReferenceRelay relay =
            ReferenceRelay.start(
                Fixtures.config("--audit", "on", "--fault-audit-write-error-p", "1"));
        RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      List<NostrEvent> es = sendAll(c, 3);
      List<JsonNode> oks = c.next(3, WAIT);
      for (int i = 0; i < 3; i++) {
        expectOk(oks.get(i), es.get(i).id(), true, "");
      }
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      expectMetric(relay, "refrelay_audit_write_errors_total", 3);
      expectMetric(relay, "refrelay_audit_log_rows", 0);
    }
  }

  @Test
  void deadWorkerMakesLaterEnqueuesFail() throws Exception {
    try (ReferenceRelay relay =
            ReferenceRelay.start(
                Fixtures.config("--audit", "on", "--fault-worker-dies-after", "2"));
        RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      List<NostrEvent> es = sendAll(c, 2);
      List<JsonNode> oks = c.next(2, WAIT);
      expectOk(oks.get(1), es.get(1).id(), true, "");
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      Thread.sleep(200);
      NostrEvent late = sendAll(c, 1).get(0);
      expectOk(c.next(WAIT), late.id(), false, "error:");
      expectMetric(relay, "refrelay_audit_enqueue_errors_total", 1);
      expectMetric(relay, "refrelay_audit_log_rows", 2);
    }
  }

  @Test
  void droppedOksAreCounted() throws Exception {
    try (ReferenceRelay relay =
            ReferenceRelay.start(
                Fixtures.config("--audit", "off", "--fault-drop-ok-fraction", "1"));
        RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      sendAll(c, 3);
      assertThat(c.poll(Duration.ofMillis(500))).isNull();
      expectMetric(relay, "refrelay_ok_dropped_total", 3);
      expectMetric(relay, "refrelay_events_accepted_total{community=\"a.localhost\"}", 3);
    }
  }

  @Test
  void connectionIsClosedAfterNEvents() throws Exception {
    try (ReferenceRelay relay =
            ReferenceRelay.start(Fixtures.config("--audit", "off", "--fault-close-after", "3"));
        RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      sendAll(c, 3);
      assertThat(c.next(3, WAIT)).hasSize(3);
      assertThat(c.awaitClosed(WAIT)).isTrue();
      assertThat(c.closeStatus()).isEqualTo(1011);
      expectMetric(relay, "refrelay_fault_closes_total", 1);
    }
  }

  @Test
  void mutantWithoutFaultsMovesNoFaultMetric() throws Exception {
    try (ReferenceRelay relay = ReferenceRelay.start(Fixtures.config("--audit", "on"));
        RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      sendAll(c, 3);
      assertThat(c.next(3, WAIT)).hasSize(3);
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      for (String series :
          List.of(
              UNAVAILABLE,
              "refrelay_audit_write_errors_total",
              "refrelay_audit_enqueue_errors_total",
              "refrelay_ok_dropped_total",
              "refrelay_fault_closes_total")) {
        assertThatThrownBy(() -> expectMetric(relay, series, series.contains("dropped") ? 3 : 1))
            .isInstanceOf(AssertionError.class)
            .hasMessageContaining("got 0.0");
      }
      assertThat(c.isOpen()).isTrue();
    }
  }
}
