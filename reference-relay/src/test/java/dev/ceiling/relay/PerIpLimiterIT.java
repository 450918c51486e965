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
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-IP limiter over real WebSockets from two loopback source addresses: 2 events/s x 5 s = 10
 * per window per address, each event from its own pubkey so the per-pubkey limit never binds.
 */
class PerIpLimiterIT {
  static final InetAddress FIRST = address(2);
  static final InetAddress SECOND = address(3);

  static InetAddress address(int last) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Sends 11 events, each from a new identity, from 127.0.0.2 and checks: 10 OK true, then the 11th
   * refused for this IP address (a NOTICE without its id, or OK false); one more event from
   * 127.0.0.3 is accepted; the relay counted exactly one quota_ip rejection and no quota one.
   */
  static void checkEleventhFromOneAddress(ReferenceRelay relay, boolean noticeMode)
      throws Exception {
    List<NostrEvent> events = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      events.add(Fixtures.event(Keys.generate()));
    }
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost", FIRST)) {
      for (NostrEvent e : events) {
        c.send(frame(e));
      }
      List<JsonNode> answers = c.next(11, WAIT);
      for (int i = 0; i < 10; i++) {
        expectOk(answers.get(i), events.get(i).id(), true, "");
      }
      String id11 = events.get(10).id();
      if (noticeMode) {
        expectNoticeWithoutId(answers.get(10), id11);
        assertThat(answers.get(10).get(1).asText())
            .isEqualTo("rate-limited: more than 10 events in 5 s for this IP address");
      } else {
        expectOk(
            answers.get(10), id11, false, "rate-limited: more than 10 events in 5 s for this IP");
      }
    }
    NostrEvent other = Fixtures.event(Keys.generate());
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost", SECOND)) {
      c.send(frame(other));
      expectOk(c.next(1, WAIT).get(0), other.id(), true, "");
    }
    double quotaIp =
        Fixtures.metric(
            relay,
            "refrelay_admission_rejections_total{reason=\"quota_ip\",transport=\"websocket\"}");
    double quota =
        Fixtures.metric(
            relay, "refrelay_admission_rejections_total{reason=\"quota\",transport=\"websocket\"}");
    if (quotaIp != 1.0 || quota != 0.0) {
      throw new AssertionError(
          "rejections must be quota_ip 1 and quota 0, got " + quotaIp + " and " + quota);
    }
  }

  @Test
  void okFalseModeRefusesThe11thEventFromOneAddressOnly() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config(
                "--audit",
                "off",
                "--limiter-per-ip-events-per-sec",
                "2",
                "--limiter-reject-mode",
                "ok-false"))) {
      checkEleventhFromOneAddress(relay, false);
    }
  }

  @Test
  void noticeModeRefusesItWithANoticeWithoutId() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config("--audit", "off", "--limiter-per-ip-events-per-sec", "2"))) {
      checkEleventhFromOneAddress(relay, true);
    }
  }

  @Test
  void withoutThePerIpLimitTheCheckFails() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config("--audit", "off", "--limiter-reject-mode", "ok-false"))) {
      assertThatThrownBy(() -> checkEleventhFromOneAddress(relay, false))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("expected [\"OK\"")
          .hasMessageEndingWith(",true,\"\"]");
    }
  }
}
