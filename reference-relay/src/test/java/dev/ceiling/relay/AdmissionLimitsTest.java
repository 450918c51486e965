package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.relay.AdmissionLimits.Decision;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-pubkey and per-IP limiters together, on a fake clock. */
class AdmissionLimitsTest {
  private static final long WINDOW = TimeUnit.SECONDS.toNanos(5);

  /** A per-pubkey limit that never binds here, and a per-IP limit of {@code perIp} (0 = off). */
  static AdmissionLimits limits(AtomicLong now, int perIp) {
    return new AdmissionLimits(
        new AdmissionLimiter(1_000, WINDOW, now::get),
        perIp == 0 ? Optional.empty() : Optional.of(new AdmissionLimiter(perIp, WINDOW, now::get)));
  }

  /**
   * Sends {@code n} events, each from its own pubkey, from one IP at once; the 1-based index of the
   * first one refused and why, or "none".
   */
  static String firstRefusal(AdmissionLimits l, String ip, int n) {
    for (int i = 1; i <= n; i++) {
      Decision d = l.admit("a.localhost", "pk" + i + "@" + ip, ip);
      if (d != Decision.ADMITTED) {
        return i + " " + d.reason();
      }
    }
    return "none";
  }

  /** Asserts a per-IP limit of 5: the 6th event from one address is refused for quota_ip. */
  static void assertSixthRefusedForTheAddress(AdmissionLimits l) {
    String first = firstRefusal(l, "127.0.0.2", 10);
    if (!first.equals("6 quota_ip")) {
      throw new AssertionError("the 6th event from one address must be refused, got " + first);
    }
  }

  @Test
  void theSixthEventFromOneAddressIsRefusedWhateverItsPubkey() {
    assertSixthRefusedForTheAddress(limits(new AtomicLong(), 5));
  }

  @Test
  void withoutAPerIpLimitOrWithALargerOneTheCheckFails() {
    assertThatThrownBy(() -> assertSixthRefusedForTheAddress(limits(new AtomicLong(), 0)))
        .isInstanceOf(AssertionError.class)
        .hasMessageEndingWith("got none");
    assertThatThrownBy(() -> assertSixthRefusedForTheAddress(limits(new AtomicLong(), 6)))
        .isInstanceOf(AssertionError.class)
        .hasMessageEndingWith("got 7 quota_ip");
  }

  @Test
  void addressesAndCommunitiesHaveTheirOwnWindowsAndAWindowExpires() {
    AtomicLong now = new AtomicLong(1_000);
    AdmissionLimits l = limits(now, 5);
    assertThat(firstRefusal(l, "127.0.0.2", 10)).isEqualTo("6 quota_ip");
    // The same pubkeys from another address, or to another community, are not limited by it.
    assertThat(firstRefusal(l, "127.0.0.3", 5)).isEqualTo("none");
    assertThat(l.admit("b.localhost", "pk1@127.0.0.2", "127.0.0.2")).isEqualTo(Decision.ADMITTED);
    now.addAndGet(WINDOW - 1);
    assertThat(l.admit("a.localhost", "late", "127.0.0.2")).isEqualTo(Decision.QUOTA_IP);
    now.addAndGet(1);
    assertThat(firstRefusal(l, "127.0.0.2", 10)).isEqualTo("6 quota_ip");
  }

  @Test
  void thePerPubkeyLimitIsCheckedFirstAndNamedApart() {
    AtomicLong now = new AtomicLong();
    AdmissionLimits l =
        new AdmissionLimits(
            new AdmissionLimiter(2, WINDOW, now::get),
            Optional.of(new AdmissionLimiter(100, WINDOW, now::get)));
    assertThat(l.admit("a.localhost", "pk", "127.0.0.2")).isEqualTo(Decision.ADMITTED);
    assertThat(l.admit("a.localhost", "pk", "127.0.0.2")).isEqualTo(Decision.ADMITTED);
    assertThat(l.admit("a.localhost", "pk", "127.0.0.2")).isEqualTo(Decision.QUOTA);
    assertThat(Decision.QUOTA.reason()).isEqualTo("quota");
    assertThat(Decision.QUOTA_IP.reason()).isEqualTo("quota_ip");
    assertThat(Decision.ADMITTED.reason()).isNull();
  }
}
