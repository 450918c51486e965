package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static dev.ceiling.relay.Fixtures.expectNoticeWithoutId;
import static dev.ceiling.relay.Fixtures.expectOk;
import static dev.ceiling.relay.Fixtures.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The admission limiter over a real WebSocket, at the seed's defaults (10/s x 5 s). */
class LimiterIT {
  /**
   * Sends 51 events from one identity in one window (well under 5 s) and checks: 50 OK true, then
   * for the 51st a NOTICE without its id (notice mode) or OK false rate-limited: (ok-false mode).
   */
  static void checkFiftyFirst(ReferenceRelay relay, boolean noticeMode) throws Exception {
    Keys keys = Keys.generate();
    List<NostrEvent> events = new ArrayList<>();
    for (int i = 0; i < 51; i++) {
      events.add(Fixtures.event(keys));
    }
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      for (NostrEvent e : events) {
        c.send(frame(e));
      }
      List<JsonNode> answers = c.next(51, WAIT);
      for (int i = 0; i < 50; i++) {
        expectOk(answers.get(i), events.get(i).id(), true, "");
      }
      String id51 = events.get(50).id();
      if (noticeMode) {
        expectNoticeWithoutId(answers.get(50), id51);
      } else {
        expectOk(answers.get(50), id51, false, "rate-limited:");
      }
    }
    double quota =
        Fixtures.metric(
            relay, "refrelay_admission_rejections_total{reason=\"quota\",transport=\"websocket\"}");
    if (quota != 1.0) {
      throw new AssertionError("quota rejections must be 1, got " + quota);
    }
  }

  @Test
  void noticeModeRejectsThe51stWithANoticeWithoutId() throws Exception {
    try (ReferenceRelay relay = ReferenceRelay.start(Fixtures.config("--audit", "off"))) {
      checkFiftyFirst(relay, true);
    }
  }

  @Test
  void okFalseModeRejectsThe51stWithRateLimited() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config("--audit", "off", "--limiter-reject-mode", "ok-false"))) {
      checkFiftyFirst(relay, false);
    }
  }

  @Test
  void mutantLimitOfFiftyFiveFailsTheCheck() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(Fixtures.config("--audit", "off", "--limiter-events-per-sec", "11"))) {
      assertThatThrownBy(() -> checkFiftyFirst(relay, true))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("expected a NOTICE");
    }
  }

  @Test
  void aNoticeCarryingTheIdFailsTheNoIdCheck() throws Exception {
    String id = "ab".repeat(32);
    JsonNode mutant = RelayTestClient.MAPPER.readTree("[\"NOTICE\",\"rate-limited: " + id + "\"]");
    assertThatThrownBy(() -> expectNoticeWithoutId(mutant, id))
        .hasMessageContaining("must not carry the event id");
    JsonNode fine = RelayTestClient.MAPPER.readTree(RelaySession.notice("rate-limited: slow down"));
    expectNoticeWithoutId(fine, id);
    assertThat(fine.get(1).asText()).startsWith("rate-limited:");
  }
}
