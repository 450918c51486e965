package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AdmissionLimiterTest {
  private static final long WINDOW = TimeUnit.SECONDS.toNanos(5);

  /** 1-based index of the first rejected event among {@code n} sent at once; 0 = none. */
  static int firstRejected(AdmissionLimiter l, int n) {
    for (int i = 1; i <= n; i++) {
      if (!l.tryAdmit("a.localhost", "pk")) {
        return i;
      }
    }
    return 0;
  }

  /** Asserts the seed relay's default: 10/s x 5 s = 50 per window, the 51st rejected. */
  static void assertFiftyFirstRejected(AdmissionLimiter l) {
    int first = firstRejected(l, 60);
    if (first != 51) {
      throw new AssertionError("the 51st event must be the first rejected, got " + first);
    }
  }

  @Test
  void fiftyFirstEventInOneWindowIsRejected() {
    AtomicLong now = new AtomicLong(1_000);
    assertFiftyFirstRejected(new AdmissionLimiter(50, WINDOW, now::get));
  }

  @Test
  void offByOneMutantsFailTheFiftyFirstCheck() {
    AtomicLong now = new AtomicLong();
    assertThatThrownBy(() -> assertFiftyFirstRejected(new AdmissionLimiter(51, WINDOW, now::get)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("got 52");
    assertThatThrownBy(() -> assertFiftyFirstRejected(new AdmissionLimiter(49, WINDOW, now::get)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("got 50");
  }

  @Test
  void windowExpiryRestoresTheQuotaAndIdentitiesAreIndependent() {
    AtomicLong now = new AtomicLong();
    AdmissionLimiter l = new AdmissionLimiter(50, WINDOW, now::get);
    assertThat(firstRejected(l, 60)).isEqualTo(51);
    assertThat(l.tryAdmit("a.localhost", "other")).isTrue();
    assertThat(l.tryAdmit("b.localhost", "pk")).isTrue();
    now.addAndGet(WINDOW - 1);
    assertThat(l.tryAdmit("a.localhost", "pk")).isFalse();
    now.addAndGet(1);
    assertThat(firstRejected(l, 60)).isEqualTo(51);
  }

  @Test
  void rejectsNonsenseArguments() {
    assertThatThrownBy(() -> new AdmissionLimiter(0, WINDOW, System::nanoTime))
        .hasMessage("limitPerWindow must be >= 1, got 0");
    assertThatThrownBy(() -> new AdmissionLimiter(1, 0, System::nanoTime))
        .hasMessage("windowNanos must be > 0, got 0");
  }
}
