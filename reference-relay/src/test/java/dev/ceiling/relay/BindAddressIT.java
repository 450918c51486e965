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

  /**
   * A port held on {@code host}: bound without SO_REUSEADDR and never listening, so a connection to
   * it is refused and no other listener can take it while it is held. The relay is then started on
   * the same port on the other address. A port the relay picked itself is not enough: in the test
   * command, beside about a hundred other relays, another test's listener on the other address and
   * the same port can answer the "not listening there" check.
   */
  static Socket hold(String host) throws IOException {
    Socket s = new Socket();
    s.setReuseAddress(false);
    s.bind(new InetSocketAddress(host, 0));
    return s;
  }

  static ReferenceRelay startOn(Socket heldElsewhere) throws Exception {
    return ReferenceRelay.start(
        Fixtures.config("--audit", "off", "--port", String.valueOf(heldElsewhere.getLocalPort())));
  }

  @Test
  void theListenerMovesOnlyWhenThePropertySaysSo() throws Exception {
    assertThat(System.getProperty(ReferenceRelay.BIND_ADDRESS_PROPERTY)).isNull();
    try (Socket held = hold("127.0.0.2");
        ReferenceRelay relay = startOn(held)) {
      connect("127.0.0.1", relay.port());
      // The default's negative: not listening on the other loopback address.
      assertThatThrownBy(() -> connect("127.0.0.2", relay.port())).isInstanceOf(IOException.class);
    }
    System.setProperty(ReferenceRelay.BIND_ADDRESS_PROPERTY, "127.0.0.2");
    try (Socket held = hold("127.0.0.1");
        ReferenceRelay relay = startOn(held)) {
      connect("127.0.0.2", relay.port());
      assertThatThrownBy(() -> connect("127.0.0.1", relay.port())).isInstanceOf(IOException.class);
    } finally {
      System.clearProperty(ReferenceRelay.BIND_ADDRESS_PROPERTY);
    }
  }
}
