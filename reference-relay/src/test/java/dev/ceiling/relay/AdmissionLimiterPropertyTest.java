package dev.ceiling.relay;

import dev.ceiling.core.testing.Property;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AdmissionLimiterPropertyTest {
  @Test
  void neverAdmitsMoreThanTheLimitInAnyWindow() {
    Property.forAll(
        "limiter admits <= limit per window",
        200,
        rnd -> {
          int limit = 1 + rnd.nextInt(20);
          long window = 1L + rnd.nextInt(1000);
          AtomicLong now = new AtomicLong();
          AdmissionLimiter l = new AdmissionLimiter(limit, window, now::get);
          long windowStart = 0;
          int admittedInWindow = 0;
          boolean started = false;
          for (int i = 0; i < 200; i++) {
            now.addAndGet(rnd.nextInt(30));
            if (!started || now.get() - windowStart >= window) {
              windowStart = now.get();
              admittedInWindow = 0;
              started = true;
            }
            boolean admitted = l.tryAdmit("c", "p");
            boolean expected = admittedInWindow < limit;
            if (admitted != expected) {
              throw new AssertionError(
                  "event " + i + ": admitted=" + admitted + " expected=" + expected);
            }
            if (admitted) {
              admittedInWindow++;
            }
          }
        });
  }
}
