package dev.ceiling.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoopbackTest {
  @Test
  void addressesIn127Slash8AndColonColon1AreLoopback() {
    for (String h : List.of("127.0.0.1", "127.1.2.3", "127.255.255.255", "[::1]", "::1")) {
      assertThat(Loopback.isLoopbackHost(h)).as(h).isTrue();
      assertThat(Loopback.isLoopbackAddress(h)).as(h).isTrue();
    }
    assertThat(Loopback.isLoopbackUrl("ws://127.0.0.1:7777/")).isTrue();
    assertThat(Loopback.isLoopbackUrl("http://[::1]:80/health")).isTrue();
  }

  @Test
  void localhostAndNamesUnderDotLocalhostAreLoopbackByTheirSpelling() {
    for (String h :
        List.of(
            "localhost",
            "localhost.",
            "LOCALHOST",
            "LocalHost.",
            "a.localhost",
            "b.localhost",
            "A.LOCALHOST",
            "a.localhost.",
            "relay-1.community.localhost",
            "x1.localhost")) {
      assertThat(Loopback.isLoopbackName(h)).as(h).isTrue();
      assertThat(Loopback.isLoopbackHost(h)).as(h).isTrue();
      // A name is never an address: code that connects picks one for it (LoopbackAddress).
      assertThat(Loopback.isLoopbackAddress(h)).as(h).isFalse();
    }
    assertThat(Loopback.isLoopbackUrl("ws://localhost:7777/")).isTrue();
    assertThat(Loopback.isLoopbackUrl("http://a.localhost:7777/health")).isTrue();
    assertThat(Loopback.isLoopbackUrl("ws://localhost./")).isTrue();
  }

  @Test
  void namesThatOnlyLookLocalAndOtherAddressesAreNot() {
    // Mutant partners of the rule above: near misses of "localhost", names that contain it, empty
    // labels, and near misses of 127/8.
    for (String h :
        List.of(
            "xlocalhost",
            "localhostx",
            "localhost.evil.com",
            "localhost.evil.com.",
            "localhost..",
            "a..localhost",
            ".localhost",
            "..localhost",
            "-a.localhost",
            "a-.localhost",
            "a_b.localhost",
            "a.localhost..",
            "localhost.localdomain",
            "local.host",
            "localhos",
            "127.0.0.1.evil.org",
            "128.0.0.1",
            "127.0.0.256",
            "10.0.0.1",
            "[::2]",
            "example.org",
            "myrelay.test",
            "")) {
      assertThat(Loopback.isLoopbackHost(h)).as(h).isFalse();
    }
    assertThat(Loopback.isLoopbackHost("a".repeat(64) + ".localhost"))
        .as("a 64-char label")
        .isFalse();
    assertThat(Loopback.isLoopbackHost(("a".repeat(60) + ".").repeat(5) + "localhost"))
        .as("a name longer than 254 characters")
        .isFalse();
    assertThat(Loopback.isLoopbackHost(null)).isFalse();
    assertThat(Loopback.isLoopbackName(null)).isFalse();
    assertThat(Loopback.isLoopbackUrl("not a url")).isFalse();
    assertThat(Loopback.isLoopbackUrl("ws://localhost.evil.com:7777/")).isFalse();
  }

  @Test
  void aRefusalSaysWhatTheRuleAccepts() {
    assertThat(Loopback.problem("health_url", "http://myrelay.test:7777/health"))
        .contains(
            "health_url must point at loopback (127.0.0.0/8 or ::1 written as an address, or"
                + " localhost and names under .localhost; other names are not resolved), got"
                + " http://myrelay.test:7777/health");
    assertThat(Loopback.problem("health_url", "http://localhost:7777/health")).isEmpty();
    assertThat(Loopback.problem("health_url", "http://a.localhost:7777/health")).isEmpty();
  }

  @Test
  void aLoopbackOrAbsentUrlIsNoProblem() {
    assertThat(Loopback.problem("health_url", "http://127.0.0.1:1/")).isEmpty();
    assertThat(Loopback.problem("metrics_url", null)).isEmpty();
  }
}
