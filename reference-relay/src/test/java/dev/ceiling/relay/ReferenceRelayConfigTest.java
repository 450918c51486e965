package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReferenceRelayConfigTest {
  @Test
  void defaultsMatchTheSeedRelay() {
    ReferenceRelayConfig c = ReferenceRelayConfig.defaults();
    assertThat(c.limiterLimitPerWindow()).isEqualTo(50);
    assertThat(c.auditOn()).isTrue();
    assertThat(c.auditQueueCapacity()).isEqualTo(1000);
    assertThat(c.verifySignatures()).isTrue();
    assertThat(c.rejectMode()).isEqualTo(ReferenceRelayConfig.RejectMode.NOTICE);
    assertThat(c.maxFrameBytes()).isEqualTo(131072);
    assertThat(c.communities()).containsExactly("a.localhost", "b.localhost");
    // One worker, no lock, six exchanges: the audit path the known answer was built on.
    assertThat(c.auditExchanges()).isEqualTo(6);
    assertThat(c.auditWorkers()).isEqualTo(1);
    assertThat(c.auditLock()).isEqualTo(AuditLockMode.NONE);
  }

  @Test
  void theAuditPathsShapeParses() {
    ReferenceRelayConfig c =
        ReferenceRelayConfig.fromArgs(
            new String[] {
              "--audit-exchanges", "9", "--audit-workers", "4", "--audit-lock", "per-community"
            });
    assertThat(c.auditExchanges()).isEqualTo(9);
    assertThat(c.auditWorkers()).isEqualTo(4);
    assertThat(c.auditLock()).isEqualTo(AuditLockMode.PER_COMMUNITY);
    assertThat(ReferenceRelayConfig.fromArgs(new String[] {"--audit-lock", "global"}).auditLock())
        .isEqualTo(AuditLockMode.GLOBAL);
  }

  @Test
  void aBadAuditShapeIsReportedInFullAtOnce() {
    assertThatThrownBy(
            () ->
                ReferenceRelayConfig.fromArgs(
                    new String[] {
                      "--audit-exchanges", "3", "--audit-workers", "0", "--audit-lock", "table"
                    }))
        .isInstanceOfSatisfying(
            ReferenceRelayConfigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "Invalid value for option '--audit-lock': expected global, per-community"
                            + " or none, got 'table'",
                        "audit-exchanges must be in [4, 1000], got 3",
                        "audit-workers must be in [1, 64], got 0"));
    assertThatThrownBy(
            () ->
                ReferenceRelayConfig.fromArgs(
                    new String[] {"--audit-exchanges", "5", "--fault-audit-write-error-p", "0.1"}))
        .isInstanceOfSatisfying(
            ReferenceRelayConfigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly(
                        "fault-audit-write-error-p rolls back a transaction, which needs"
                            + " audit-exchanges >= 6, got 5"));
  }

  @Test
  void describesItselfInOneLineUnderAnyLocale() {
    Locale saved = Locale.getDefault();
    try {
      for (Locale l : List.of(Locale.ROOT, Locale.GERMANY, Locale.forLanguageTag("ar"))) {
        Locale.setDefault(l);
        assertThat(
                ReferenceRelayConfig.fromArgs(
                        new String[] {"--audit-exchange-delay-ms", "0.5", "--rig-id", "x"})
                    .describe())
            .isEqualTo(
                "port=0 db_port=0 data_dir=(temp) reset=false communities=a.localhost,b.localhost"
                    + " default_community=(none) audit=on audit_queue_capacity=1000"
                    + " audit_exchange_delay_ms=0.5 audit_exchanges=6 audit_workers=1"
                    + " audit_lock=none limiter=10/s x 5s (50 per window) limiter_per_ip=off"
                    + " reject_mode=notice verify_signatures=true db=embedded-h2"
                    + " synchronous_commit=on max_frame_bytes=131072 faults=none");
      }
    } finally {
      Locale.setDefault(saved);
    }
  }

  @Test
  void everyFlagParses() {
    ReferenceRelayConfig c =
        ReferenceRelayConfig.fromArgs(
            new String[] {
              "--port",
              "8080",
              "--db-port=9092",
              "--reset",
              "--communities",
              "x.localhost",
              "--default-community",
              "x.localhost",
              "--audit",
              "off",
              "--audit-queue-capacity",
              "7",
              "--limiter-reject-mode",
              "ok-false",
              "--verify-signatures",
              "false",
              "--jdbc-url",
              "jdbc:postgresql://127.0.0.1/db",
              "--synchronous-commit",
              "off",
              "--fault-drop-ok-fraction",
              "0.5",
              "--seed",
              "9"
            });
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.dbPort()).isEqualTo(9092);
    assertThat(c.reset()).isTrue();
    assertThat(c.defaultCommunity()).isEqualTo(Optional.of("x.localhost"));
    assertThat(c.auditOn()).isFalse();
    assertThat(c.rejectMode()).isEqualTo(ReferenceRelayConfig.RejectMode.OK_FALSE);
    assertThat(c.synchronousCommit()).isFalse();
    assertThat(c.faults().dropOkFraction()).isEqualTo(0.5);
    assertThat(c.faults().seed()).isEqualTo(9);
  }

  @Test
  void thePerIpLimitIsOffByDefaultAndSharesTheWindow() {
    ReferenceRelayConfig off = ReferenceRelayConfig.defaults();
    assertThat(off.limiterPerIpOn()).isFalse();
    assertThat(off.limiterPerIpLimitPerWindow()).isZero();
    ReferenceRelayConfig on =
        ReferenceRelayConfig.fromArgs(
            new String[] {"--limiter-per-ip-events-per-sec", "50", "--limiter-window-secs", "2"});
    assertThat(on.limiterPerIpOn()).isTrue();
    assertThat(on.limiterPerIpLimitPerWindow()).isEqualTo(100);
    assertThat(on.describe()).contains(" limiter_per_ip=50/s x 2s (100 per window) ");
  }

  @Test
  void aNegativePerIpLimitIsNamedWithEveryOtherProblem() {
    assertThatThrownBy(
            () ->
                ReferenceRelayConfig.fromArgs(
                    new String[] {
                      "--limiter-per-ip-events-per-sec", "-1", "--limiter-events-per-sec", "0"
                    }))
        .isInstanceOfSatisfying(
            ReferenceRelayConfigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "limiter-events-per-sec must be >= 1, got 0",
                        "limiter-per-ip-events-per-sec must be >= 0 (0 = off), got -1"));
  }

  @Test
  void reportsEveryProblemAtOnce() {
    assertThatThrownBy(
            () ->
                ReferenceRelayConfig.fromArgs(
                    new String[] {
                      "--port", "70000", "--audit-queue-capacity", "0",
                      "--fault-audit-write-error-p", "2", "--communities", "A.localhost:80"
                    }))
        .isInstanceOfSatisfying(
            ReferenceRelayConfigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "fault-audit-write-error-p must be in [0, 1], got 2.0",
                        "port must be in [0, 65535], got 70000",
                        "communities must be lower-case host names without port, got"
                            + " 'A.localhost:80'",
                        "audit-queue-capacity must be >= 1 entries, got 0"));
  }

  @Test
  void dbConnectTakesALoopbackAddressAndIsNamedInTheDescription() {
    ReferenceRelayConfig c =
        ReferenceRelayConfig.fromArgs(new String[] {"--db-connect", "127.0.0.1:41000"});
    assertThat(c.dbConnect()).contains("127.0.0.1:41000");
    assertThat(c.describe()).contains("db=embedded-h2 via 127.0.0.1:41000");
    // Partner: without the flag the audit path connects to the server's own address.
    assertThat(ReferenceRelayConfig.defaults().dbConnect()).isEmpty();
  }

  @Test
  void dbConnectReplacesAPostgresUrlsAddressForTheAuditPathOnly() {
    ReferenceRelayConfig c =
        ReferenceRelayConfig.fromArgs(
            new String[] {
              "--db-connect", "127.0.0.1:41000",
              "--jdbc-url", "jdbc:postgresql://127.0.0.1:5432/ceiling?user=postgres"
            });
    assertThat(c.describe())
        .contains("db=jdbc:postgresql://127.0.0.1:5432/ceiling?user=postgres via 127.0.0.1:41000");
    assertThat(AuditDatabase.withAddress(c.jdbcUrl().orElseThrow(), "127.0.0.1:41000"))
        .isEqualTo("jdbc:postgresql://127.0.0.1:41000/ceiling?user=postgres");
    // Partners: a URL without a port, or not PostgreSQL's, has no address to replace.
    assertThat(AuditDatabase.withAddress("jdbc:postgresql://127.0.0.1/x", "127.0.0.1:1")).isNull();
    assertThat(AuditDatabase.withAddress("jdbc:h2:tcp://127.0.0.1:9092/x", "127.0.0.1:1")).isNull();
  }

  @Test
  void aBadDbConnectIsNamedWithEveryOtherProblem() {
    assertThatThrownBy(
            () ->
                ReferenceRelayConfig.fromArgs(
                    new String[] {
                      "--db-connect", "db.example.com:5432",
                      "--jdbc-url", "jdbc:postgresql://127.0.0.1/x"
                    }))
        .isInstanceOfSatisfying(
            ReferenceRelayConfigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "db-connect with --jdbc-url needs a jdbc:postgresql://HOST:PORT/... URL,"
                            + " whose address the audit path then replaces; got"
                            + " jdbc:postgresql://127.0.0.1/x",
                        "db-connect must be host:port with a loopback address and a port in [1,"
                            + " 65535], e.g. 127.0.0.1:47101, got 'db.example.com:5432'"));
    assertThatThrownBy(
            () -> ReferenceRelayConfig.fromArgs(new String[] {"--db-connect", "127.0.0.1:0"}))
        .hasMessageContaining("db-connect must be host:port");
    // A loopback name would be looked up by the database driver: an address only here.
    assertThatThrownBy(
            () -> ReferenceRelayConfig.fromArgs(new String[] {"--db-connect", "localhost:47101"}))
        .hasMessageContaining("db-connect must be host:port with a loopback address");
  }

  @Test
  void hostHeaderResolvesWithOrWithoutPort() {
    ReferenceRelayConfig c = ReferenceRelayConfig.defaults();
    assertThat(ReferenceRelay.communityFor(c, "a.localhost:7777")).contains("a.localhost");
    assertThat(ReferenceRelay.communityFor(c, "B.LOCALHOST")).contains("b.localhost");
    assertThat(ReferenceRelay.communityFor(c, "c.localhost:7777")).isEmpty();
    assertThat(ReferenceRelay.communityFor(c, null)).isEmpty();
    assertThat(ReferenceRelay.communityFor(c, "[::1]:80")).isEmpty();
  }
}
