package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static dev.ceiling.relay.Fixtures.expectOk;
import static dev.ceiling.relay.Fixtures.frame;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The audit path against PostgreSQL (pg_advisory_lock, synchronous_commit off). Runs only when
 * CEILING_TEST_PG_URL names a database this test may reset, e.g.
 * jdbc:postgresql://127.0.0.1:55432/ceiling?user=postgres; skipped otherwise.
 */
class PostgresAuditIT {
  @Test
  void chainVerifiesOnPostgres() throws Exception {
    String url = System.getenv("CEILING_TEST_PG_URL");
    Assumptions.assumeTrue(
        url != null && !url.isBlank(), "CEILING_TEST_PG_URL not set: PostgreSQL test skipped");
    try (ReferenceRelay relay =
        ReferenceRelay.start(
            Fixtures.config(
                "--audit",
                "on",
                "--jdbc-url",
                url,
                "--reset",
                "--synchronous-commit",
                "off",
                "--limiter-events-per-sec",
                "1000"))) {
      assertThat(relay.readyLine()).contains(" db_port=NA ");
      Keys keys = Keys.generate();
      List<NostrEvent> es = new ArrayList<>();
      try (RelayTestClient c = RelayTestClient.connect(relay.port(), "a.localhost")) {
        for (int i = 0; i < 30; i++) {
          NostrEvent e = Fixtures.event(keys);
          es.add(e);
          c.send(frame(e));
        }
        List<JsonNode> oks = c.next(30, WAIT);
        for (int i = 0; i < 30; i++) {
          expectOk(oks.get(i), es.get(i).id(), true, "");
        }
      }
      assertThat(relay.awaitAuditDrained(WAIT)).isTrue();
      assertThat(relay.auditRows()).isEqualTo(30);
      try (Connection c = DriverManager.getConnection(url)) {
        assertThat(AuditChain.verify(c, "audit_log").ok()).isTrue();
        try (Statement s = c.createStatement()) {
          s.execute("UPDATE audit_log SET kind = 7 WHERE seq = 12");
        }
        assertThat(AuditChain.verify(c, "audit_log").problem().orElseThrow())
            .startsWith("seq 12: stored hash");
      }
    }
  }

  /**
   * The same lock on PostgreSQL, where the lease is {@code pg_advisory_lock} and waits in the
   * server: two workers under a global lock write one entry at a time, and without it two (the
   * partner), each per write time measured in its own window ({@link AuditDrain}).
   */
  @Test
  void aGlobalAdvisoryLockHoldsTwoWorkersToOneWriteAtATime() throws Exception {
    String url = System.getenv("CEILING_TEST_PG_URL");
    Assumptions.assumeTrue(
        url != null && !url.isBlank(), "CEILING_TEST_PG_URL not set: PostgreSQL test skipped");
    java.time.Duration window = java.time.Duration.ofSeconds(2);
    AuditDrain global = drain(url, window, "global");
    AuditDrain none = drain(url, window, "none");
    assertThat(global.writesInFlight()).as("global lock").isBetween(0.6, 1.3);
    assertThat(none.writesInFlight()).as("no lock").isBetween(1.6, 2.4);
  }

  private static AuditDrain drain(String url, java.time.Duration window, String lock)
      throws Exception {
    return AuditDrain.measure(
        window,
        "--jdbc-url",
        url,
        "--audit-exchange-delay-ms",
        "3",
        "--audit-workers",
        "2",
        "--audit-lock",
        lock);
  }
}
