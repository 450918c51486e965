package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.nostr.Keys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The audit path's built-in link: {@code PUT /audit-exchange-delay} moves the delay before each
 * exchange while the relay runs, and {@code refrelay_audit_exchanges_total} counts the delayed
 * exchanges, exactly {@code --audit-exchanges} per entry (its partner: four exchanges read four).
 */
class AddedDelayIT {
  static final int EVENTS = 40;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static HttpResponse<String> put(ReferenceRelay relay, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + relay.port() + HttpEndpoints.ADDED_DELAY))
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Publishes {@code n} events and waits until the audit path has written them. */
  static void publishAndDrain(ReferenceRelay relay, int n) throws Exception {
    Keys keys = Keys.generate();
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      for (int i = 0; i < n; i++) {
        c.send(Fixtures.frame(Fixtures.event(keys)));
      }
      c.next(n, WAIT);
    }
    assertThat(relay.awaitAuditDrained(WAIT)).as("the audit queue drained").isTrue();
  }

  static double exchanges(ReferenceRelay relay) {
    return Fixtures.metric(relay, "refrelay_audit_exchanges_total");
  }

  static double entries(ReferenceRelay relay) {
    return Fixtures.metric(relay, "refrelay_audit_log_seconds_count");
  }

  static ReferenceRelay relay(String exchanges) throws Exception {
    return ReferenceRelay.start(
        Fixtures.config(
            "--audit",
            "on",
            "--reset",
            "--limiter-events-per-sec",
            "1000000",
            "--audit-queue-capacity",
            "1000",
            "--audit-exchanges",
            exchanges));
  }

  @Test
  void eachEntryMakesItsDeclaredNumberOfDelayedExchanges() throws Exception {
    for (int declared : new int[] {6, 4}) {
      try (ReferenceRelay relay = relay(Integer.toString(declared))) {
        double exchangesBefore = exchanges(relay);
        double entriesBefore = entries(relay);
        publishAndDrain(relay, EVENTS);
        double entries = entries(relay) - entriesBefore;
        assertThat(entries).as("entries written").isEqualTo(EVENTS);
        assertThat((exchanges(relay) - exchangesBefore) / entries)
            .as("delayed exchanges per entry at --audit-exchanges %d", declared)
            .isEqualTo(declared);
      }
    }
  }

  @Test
  void aPutAddsTheDelayToEveryExchangeOfTheNextEntries() throws Exception {
    try (ReferenceRelay relay = relay("6")) {
      HttpResponse<String> set = put(relay, "2.5");
      assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
      assertThat(set.body()).contains("\"added_delay_ms\":2.5");
      assertThat(Fixtures.metric(relay, "refrelay_audit_added_delay_seconds")).isEqualTo(0.0025);
      double sumBefore = Fixtures.metric(relay, "refrelay_audit_log_seconds_sum");
      double entriesBefore = entries(relay);
      publishAndDrain(relay, 10);
      double meanSeconds =
          (Fixtures.metric(relay, "refrelay_audit_log_seconds_sum") - sumBefore)
              / (entries(relay) - entriesBefore);
      // A lower bound only: six sleeps of at least 2.5 ms each; how much longer is the machine's.
      assertThat(meanSeconds).as("mean service time of an entry, s").isGreaterThanOrEqualTo(0.015);
      HttpResponse<String> back = put(relay, "0");
      assertThat(back.statusCode()).as(back.body()).isEqualTo(200);
      assertThat(Fixtures.metric(relay, "refrelay_audit_added_delay_seconds")).isZero();
    }
  }

  @Test
  void aBadDelayIsRefusedNamingItAndChangesNothing() throws Exception {
    try (ReferenceRelay relay = relay("6")) {
      for (String bad : new String[] {"abc", "-1", "10001", "NaN", ""}) {
        HttpResponse<String> r = put(relay, bad);
        assertThat(r.statusCode()).as("PUT '%s'", bad).isEqualTo(400);
        assertThat(r.body()).as("PUT '%s'", bad).contains(bad.isEmpty() ? "got ''" : bad);
      }
      assertThat(Fixtures.metric(relay, "refrelay_audit_added_delay_seconds")).isZero();
      HttpResponse<String> post =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + relay.port() + HttpEndpoints.ADDED_DELAY))
                  .POST(HttpRequest.BodyPublishers.ofString("1"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
    }
  }

  @Test
  void onlyLoopbackMaySetTheDelay() {
    assertThat(HttpEndpoints.loopback("127.0.0.1")).isTrue();
    assertThat(HttpEndpoints.loopback("127.0.0.2")).isTrue();
    assertThat(HttpEndpoints.loopback("::1")).isTrue();
    assertThat(HttpEndpoints.loopback("10.0.0.1")).isFalse();
    assertThat(HttpEndpoints.loopback("192.168.1.20")).isFalse();
  }
}
