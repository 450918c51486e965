package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/**
 * The listener's address: 127.0.0.1 unless the explicit system property {@code
 * ceiling.relay.bind-address} names another (for a relay inside a network namespace of a multi-host
 * test, docs/SCALE_OUT.md). 127.0.0.2 is another loopback address, so this runs anywhere and
 * reaches nothing outside the machine.
 */
class BindAddressIT {

  static void connect(String host, int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 5_000);
    }
  }

  @Test
  void theListenerMovesOnlyWhenThePropertySaysSo() throws Exception {
    assertThat(System.getProperty(ReferenceRelay.BIND_ADDRESS_PROPERTY)).isNull();
    try (ReferenceRelay relay = ReferenceRelay.start(Fixtures.config("--audit", "off"))) {
      connect("127.0.0.1", relay.port());
      // The default's negative: not listening on the other loopback address.
      assertThatThrownBy(() -> connect("127.0.0.2", relay.port())).isInstanceOf(IOException.class);
    }
    System.setProperty(ReferenceRelay.BIND_ADDRESS_PROPERTY, "127.0.0.2");
    try (ReferenceRelay relay = ReferenceRelay.start(Fixtures.config("--audit", "off"))) {
      connect("127.0.0.2", relay.port());
      assertThatThrownBy(() -> connect("127.0.0.1", relay.port())).isInstanceOf(IOException.class);
    } finally {
      System.clearProperty(ReferenceRelay.BIND_ADDRESS_PROPERTY);
    }
  }
}
