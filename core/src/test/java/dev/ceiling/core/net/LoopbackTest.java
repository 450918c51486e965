package dev.ceiling.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.LoopbackNames;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopbackTest {
  @Test
  void addressesIn127Slash8AndColonColon1AreLoopback() {
    for (String h : List.of("127.0.0.1", "127.1.2.3", "127.255.255.255", "[::1]", "::1")) {
      assertThat(Loopback.isLoopbackHost(h)).as(h).isTrue();
    }
    assertThat(Loopback.isLoopbackUrl("ws://127.0.0.1:7777/")).isTrue();
    assertThat(Loopback.isLoopbackUrl("http://[::1]:80/health")).isTrue();
  }

  @Test
  void namesAndOtherAddressesAreNot() {
    // Mutant partners: names that only look local, a public address, near misses of 127/8.
    for (String h :
        List.of(
            "localhost",
            "localhost.",
            "a.localhost",
            "localhost.evil.org",
            "127.0.0.1.evil.org",
            "128.0.0.1",
            "127.0.0.256",
            "10.0.0.1",
            "[::2]",
            "example.org",
            "")) {
      assertThat(Loopback.isLoopbackHost(h)).as(h).isFalse();
    }
    assertThat(Loopback.isLoopbackHost(null)).isFalse();
    assertThat(Loopback.isLoopbackUrl("not a url")).isFalse();
  }

  @Test
  void aNameThatResolvesToLoopbackIsStillRefused() throws UnknownHostException {
    String name = LoopbackNames.localhost();

    assertThat(Loopback.isLoopbackHost(name)).isFalse();
    assertThat(Loopback.problem("health_url", "http://localhost:7777/health"))
        .contains(
            "health_url must point at loopback (127.0.0.0/8 or ::1 written as an address; names,"
                + " localhost included, are not resolved), got http://localhost:7777/health");
  }

  @Test
  void aLoopbackOrAbsentUrlIsNoProblem() {
    assertThat(Loopback.problem("health_url", "http://127.0.0.1:1/")).isEmpty();
    assertThat(Loopback.problem("metrics_url", null)).isEmpty();
  }
}
