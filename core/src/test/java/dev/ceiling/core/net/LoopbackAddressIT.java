package dev.ceiling.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Where a loopback name connects: 127.0.0.1 when it accepts, else ::1 when only that does. */
class LoopbackAddressIT {
  private static final Duration TRIAL = Duration.ofSeconds(2);
  private static final InetAddress V4 = address(127, 0, 0, 1);
  private static final InetAddress V6 = address(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);

  private static InetAddress address(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    try {
      return InetAddress.getByAddress(b);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aRelayOn127001IsReachedThere() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 5, V4)) {
      LoopbackAddress.Choice c = LoopbackAddress.choose("a.localhost", s.getLocalPort(), TRIAL);

      assertThat(c.urlHost()).isEqualTo("127.0.0.1");
      assertThat(c.describe(s.getLocalPort()))
          .isEqualTo(
              "a.localhost:"
                  + s.getLocalPort()
                  + " connects to 127.0.0.1 (it accepted a connection)");
      assertThat(
              LoopbackAddress.connectUri(
                  URI.create("ws://localhost:" + s.getLocalPort() + "/p?q=1"), TRIAL))
          .hasToString("ws://127.0.0.1:" + s.getLocalPort() + "/p?q=1");
    }
  }

  @Test
  void aRelayOnlyOnColonColon1IsReachedThere() throws IOException {
    ServerSocket s;
    try {
      s = new ServerSocket(0, 5, V6);
    } catch (IOException e) {
      assumeTrue(false, "no IPv6 loopback here: " + e);
      return;
    }
    try (s) {
      // The partner of the test above: 127.0.0.1 does not accept on this port, so choosing it
      // would connect nowhere.
      LoopbackAddress.Choice c = LoopbackAddress.choose("localhost", s.getLocalPort(), TRIAL);

      assertThat(c.urlHost()).isEqualTo("[::1]");
      assertThat(c.how()).isEqualTo("127.0.0.1 refused, ::1 accepted a connection");
      assertThat(
              LoopbackAddress.connectUri(
                  URI.create("http://localhost:" + s.getLocalPort() + "/m"), TRIAL))
          .hasToString("http://[::1]:" + s.getLocalPort() + "/m");
    }
  }

  @Test
  void nothingListeningFallsBackTo127001AndSaysSo() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, V4)) {
      port = s.getLocalPort();
    }
    LoopbackAddress.Choice c = LoopbackAddress.choose("localhost", port, TRIAL);

    assertThat(c.urlHost()).isEqualTo("127.0.0.1");
    assertThat(c.how()).isEqualTo("neither 127.0.0.1 nor ::1 accepted a connection yet");
  }

  @Test
  void anAddressOrARemoteNameIsLeftAsWritten() {
    URI literal = URI.create("ws://127.0.0.1:9/");
    URI remote = URI.create("ws://myrelay.test:9/");

    assertThat(LoopbackAddress.connectUri(literal, TRIAL)).isSameAs(literal);
    assertThat(LoopbackAddress.connectUri(remote, TRIAL)).isSameAs(remote);
    assertThatThrownBy(() -> LoopbackAddress.choose("myrelay.test", 9, TRIAL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("host must be localhost or a name under .localhost, got myrelay.test");
  }

  @Test
  void theHostHeaderKeepsTheNameAsWritten() {
    assertThat(LoopbackAddress.hostHeader(URI.create("ws://a.localhost:7777/")))
        .isEqualTo("a.localhost:7777");
    assertThat(LoopbackAddress.hostHeader(URI.create("ws://localhost/"))).isEqualTo("localhost");
    assertThat(LoopbackAddress.port(URI.create("wss://localhost/"))).isEqualTo(443);
    assertThat(LoopbackAddress.port(URI.create("ws://localhost/"))).isEqualTo(80);
  }
}
