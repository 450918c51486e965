package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Target;
import dev.ceiling.generator.testing.TestRelay;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.websocket.api.Session;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generator binds its connections to the configured loopback source addresses, round-robin, as
 * the relay sees them. A relay on 127.0.0.1 records each connection's peer address.
 */
class SourceAddressesIT {
  static final List<InetAddress> TWO = List.of(address("127.0.0.2"), address("127.0.0.3"));

  static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** All of 127.0.0.0/8 is loopback on Linux; a machine where it is not fails here, not later. */
  @BeforeAll
  static void bindingTo127002Works() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, address("127.0.0.1"));
        Socket s = new Socket()) {
      s.bind(new InetSocketAddress(address("127.0.0.2"), 0));
      s.connect(new InetSocketAddress(address("127.0.0.1"), server.getLocalPort()), 5_000);
      assertThat(s.getLocalAddress()).isEqualTo(address("127.0.0.2"));
    }
  }

  /** Runs 1 s at 20 events/s over 4 connections; the peer addresses of the relay's connections. */
  static List<String> peersOfARun(List<InetAddress> sources, List<GeneratorReport> reports)
      throws Exception {
    List<String> peers = new CopyOnWriteArrayList<>();
    try (TestRelay relay =
        new TestRelay(
            new TestRelay.Behavior() {
              @Override
              public void onOpen(Session s, TestRelay r) {
                SocketAddress a = s.getRemoteSocketAddress();
                peers.add(((InetSocketAddress) a).getAddress().getHostAddress());
              }
            })) {
      GeneratorConfig cfg =
          GeneratorConfig.builder()
              .load(
                  new TargetLoad(
                      new Target("a", relay.url(), null, List.of(List.of("h", "t")), 1, 64),
                      20,
                      4,
                      4))
              .duration(Duration.ofSeconds(1))
              .gracePeriod(Duration.ofSeconds(5))
              .connectTimeout(Duration.ofSeconds(30))
              .wakeFloorProbe(Duration.ZERO)
              .sourceAddresses(sources)
              .build();
      GeneratorReport r = Generator.run(cfg, ProgressListener.NONE);
      reports.add(r);
      assertThat(r.aggregate().accepted()).isEqualTo(r.aggregate().attempted()).isPositive();
    }
    return peers;
  }

  /** Connections per peer address must be two from each of 127.0.0.2 and 127.0.0.3. */
  static void assertTwoFromEach(List<String> peers) {
    Map<String, Integer> byPeer = new TreeMap<>();
    peers.forEach(p -> byPeer.merge(p, 1, Integer::sum));
    if (!byPeer.equals(Map.of("127.0.0.2", 2, "127.0.0.3", 2))) {
      throw new AssertionError(
          "expected 2 connections from each of 127.0.0.2 and 127.0.0.3, got " + byPeer);
    }
  }

  @Test
  void twoSourceAddressesGetTwoConnectionsEachAndTheReportSaysM2() throws Exception {
    List<GeneratorReport> reports = new CopyOnWriteArrayList<>();
    assertTwoFromEach(peersOfARun(TWO, reports));
    assertThat(reports.get(0).sourceAddresses()).isEqualTo(2);
    assertThat(reports.get(0).config()).contains(", 2 source addresses 127.0.0.2,127.0.0.3: ");
  }

  @Test
  void withoutSourceAddressesEveryConnectionComesFrom127001AndTheCheckFails() throws Exception {
    List<GeneratorReport> reports = new CopyOnWriteArrayList<>();
    List<String> peers = peersOfARun(List.of(), reports);
    assertThatThrownBy(() -> assertTwoFromEach(peers))
        .isInstanceOf(AssertionError.class)
        .hasMessageEndingWith("got {127.0.0.1=4}");
    assertThat(reports.get(0).sourceAddresses()).isZero();
  }
}
