package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static dev.ceiling.relay.Fixtures.expectOk;
import static dev.ceiling.relay.Fixtures.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The treatment arm's audit path: hash chain, row count, bounded queue, backpressure on OK. */
class AuditIT {
  private static final Keys KEYS = Keys.generate();

  private static List<NostrEvent> events(int n) {
    List<NostrEvent> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Fixtures.event(KEYS));
    }
    return out;
  }

  @Test
  void chainVerifiesEndToEndAndRowsEqualAccepted() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config("--audit", "on", "--limiter-events-per-sec", "1000"))) {
      int perCommunity = 40;
      for (String host : List.of("a.localhost", "b.localhost")) {
        try (RelayTestClient c = RelayTestClient.connect(relay.port(), host)) {
          List<NostrEvent> es = events(perCommunity);
          es.forEach(e -> c.send(frame(e)));
          List<JsonNode> oks = c.next(perCommunity, WAIT);
          for (int i = 0; i < perCommunity; i++) {
            expectOk(oks.get(i), es.get(i).id(), true, "");
          }
        }
      }
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      double accepted =
          Fixtures.metric(relay, "refrelay_events_accepted_total{community=\"a.localhost\"}")
              + Fixtures.metric(relay, "refrelay_events_accepted_total{community=\"b.localhost\"}");
      assertThat(accepted).isEqualTo(2.0 * perCommunity);
      assertThat(Fixtures.metric(relay, "refrelay_audit_log_rows")).isEqualTo(accepted);
      assertThat(Fixtures.metric(relay, "refrelay_audit_log_seconds_count")).isEqualTo(accepted);
      try (Connection c = DriverManager.getConnection(relay.jdbcUrl(), "sa", "")) {
        AuditChain.Verification v = AuditChain.verify(c, "audit_log");
        assertThat(v.problem()).isEmpty();
        assertThat(v.rows()).isEqualTo((long) accepted);

        // Mutant partners: a tampered row and a broken link must each be caught.
        try (Statement s = c.createStatement()) {
          s.execute("UPDATE audit_log SET community = 'forged' WHERE seq = 30");
        }
        AuditChain.Verification tampered = AuditChain.verify(c, "audit_log");
        assertThat(tampered.ok()).isFalse();
        assertThat(tampered.problem().orElseThrow()).startsWith("seq 30: stored hash");
        try (Statement s = c.createStatement()) {
          s.execute("UPDATE audit_log SET community = 'a.localhost' WHERE seq = 30");
          s.execute("DELETE FROM audit_log WHERE seq = 31");
        }
        assertThat(AuditChain.verify(c, "audit_log").problem().orElseThrow())
            .contains("seq must run 1, 2, 3");
      }
    }
  }

  /**
   * Two workers under per-community leases: each community's entries form a chain of their own
   * (community a's in audit_log, b's in audit_log_1), each verifies, and the rows metric counts
   * both.
   */
  @Test
  void perCommunityLocksKeepOneVerifiedChainPerCommunity() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config(
                "--audit",
                "on",
                "--audit-workers",
                "2",
                "--audit-lock",
                "per-community",
                "--limiter-events-per-sec",
                "1000"))) {
      int perCommunity = 30;
      for (String host : List.of("a.localhost", "b.localhost")) {
        try (RelayTestClient c = RelayTestClient.connect(relay.port(), host)) {
          events(perCommunity).forEach(e -> c.send(frame(e)));
          c.next(perCommunity, WAIT);
        }
      }
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      assertThat(Fixtures.metric(relay, "refrelay_audit_log_rows")).isEqualTo(2.0 * perCommunity);
      try (Connection c = DriverManager.getConnection(relay.jdbcUrl(), "sa", "")) {
        for (String table : List.of("audit_log", "audit_log_1")) {
          AuditChain.Verification v = AuditChain.verify(c, table);
          assertThat(v.problem()).as(table).isEmpty();
          assertThat(v.rows()).as(table).isEqualTo(perCommunity);
        }
        try (Statement s = c.createStatement();
            java.sql.ResultSet r =
                s.executeQuery("SELECT COUNT(*) FROM audit_log WHERE community <> 'a.localhost'")) {
          r.next();
          assertThat(r.getLong(1)).as("rows of another community in a's chain").isZero();
        }
      }
    }
  }

  /**
   * Sends {@code n} events at once on one connection to a relay whose audit queue holds {@code
   * capacity} and whose worker needs at least 6 x {@code delayMillis} per entry, and checks the
   * backpressure: the queue fills to exactly its capacity and never beyond, and OK latency rises so
   * that the last OK comes no earlier than (n - capacity - 1) worker entries after the send.
   */
  static void checkBackpressure(ReferenceRelay relay, int n, int capacity, double delayMillis)
      throws Exception {
    AtomicInteger maxSeen = new AtomicInteger();
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler =
        new Thread(
            () -> {
              while (sampling.get()) {
                double d = Fixtures.metric(relay, "refrelay_audit_queue_depth");
                maxSeen.accumulateAndGet((int) d, Math::max);
                try {
                  Thread.sleep(2);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    sampler.start();
    List<Long> at = new ArrayList<>();
    long sent;
    try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
      List<NostrEvent> es = events(n);
      sent = System.nanoTime();
      for (NostrEvent e : es) {
        c.send(frame(e));
      }
      List<JsonNode> oks = c.next(n, Duration.ofSeconds(30), at);
      for (int i = 0; i < n; i++) {
        expectOk(oks.get(i), es.get(i).id(), true, "");
      }
    } finally {
      sampling.set(false);
      sampler.join();
    }
    double highWater = Fixtures.metric(relay, "refrelay_audit_queue_high_water");
    if (highWater != capacity || maxSeen.get() > capacity) {
      throw new AssertionError(
          "queue must fill to exactly "
              + capacity
              + " and never beyond; high water "
              + highWater
              + ", sampled max "
              + maxSeen.get());
    }
    double firstMillis = (at.get(0) - sent) / 1e6;
    double lastMillis = (at.get(n - 1) - sent) / 1e6;
    double floorMillis = (n - capacity - 1) * 6 * delayMillis;
    if (!(lastMillis >= floorMillis && lastMillis > 3 * firstMillis)) {
      throw new AssertionError(
          String.format(
              java.util.Locale.ROOT,
              "OK latency must rise: first %.1f ms, last %.1f ms, floor %.1f ms",
              firstMillis,
              lastMillis,
              floorMillis));
    }
  }

  @Test
  void queueFillsToExactlyCapacityAndOkLatencyRises() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config(
                "--audit", "on",
                "--audit-queue-capacity", "10",
                "--audit-exchange-delay-ms", "2.0",
                "--limiter-events-per-sec", "1000"))) {
      checkBackpressure(relay, 40, 10, 2.0);
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      assertThat(relay.auditRows()).isEqualTo(40);
      // The histogram saw every entry, each at least six injected delays long.
      assertThat(Fixtures.metric(relay, "refrelay_audit_log_seconds_sum"))
          .isGreaterThanOrEqualTo(40 * 6 * 0.002);
    }
  }

  @Test
  void mutantWithoutAuditShowsNoBackpressure() throws Exception {
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config("--audit", "off", "--limiter-events-per-sec", "1000"))) {
      assertThatThrownBy(() -> checkBackpressure(relay, 40, 10, 2.0))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("queue must fill to exactly 10");
      assertThat(relay.auditRows()).isZero();
    }
  }
}
