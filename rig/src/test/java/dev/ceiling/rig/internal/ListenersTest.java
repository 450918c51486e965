package dev.ceiling.rig.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the kernel's socket tables: addresses in its byte order, LISTEN rows only. */
class ListenersTest {
  private static final String HEADER =
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout"
          + " inode";

  private static String row(String local, String state, String inode) {
    return "   0: "
        + local
        + " 00000000:0000 "
        + state
        + " 00000000:00000000 00:00000000 00000000     0        0 "
        + inode
        + " 1 0000000000000000 100 0 0 10 0";
  }

  @Test
  void ipv4RowsReadInTheKernelsByteOrderAndOnlyListenersCount() {
    List<Listeners.Socket> s =
        Listeners.parse(
            List.of(
                HEADER,
                row("0100007F:1F48", "0A", "111"),
                row("00000000:1F49", "0A", "222"),
                row("0100007F:1F4A", "01", "333")));
    assertThat(s)
        .containsExactly(
            new Listeners.Socket("127.0.0.1", 8008, "111", true),
            new Listeners.Socket("0.0.0.0", 8009, "222", false));
    assertThat(s.get(1).endpoint()).isEqualTo("0.0.0.0:8009");
  }

  @Test
  void ipv6LoopbackAndMappedLoopbackAreLoopbackAndTheWildcardIsNot() {
    List<Listeners.Socket> s =
        Listeners.parse(
            List.of(
                HEADER,
                row("00000000000000000000000001000000:1F48", "0A", "1"),
                row("0000000000000000FFFF00000100007F:1F49", "0A", "2"),
                row("00000000000000000000000000000000:1F4A", "0A", "3")));
    assertThat(s).extracting(Listeners.Socket::loopback).containsExactly(true, true, false);
    assertThat(s.get(0).address()).isEqualTo("0:0:0:0:0:0:0:1");
    assertThat(s.get(1).address()).isEqualTo("127.0.0.1");
    assertThat(s.get(2).endpoint()).isEqualTo("[0:0:0:0:0:0:0:0]:8010");
  }

  /** Partner: a LAN address is off loopback, whatever its port. */
  @Test
  void aLanAddressIsOffLoopback() {
    // 192.168.1.10, each byte of the word reversed: 0A 01 A8 C0.
    assertThat(Listeners.parse(List.of(HEADER, row("0A01A8C0:0050", "0A", "9"))))
        .containsExactly(new Listeners.Socket("192.168.1.10", 80, "9", false));
  }

  @Test
  void anUnreadableListenRowIsNamed() {
    String bad = row("7F:1F48", "0A", "1");
    assertThatThrownBy(() -> Listeners.parse(List.of(HEADER, bad)))
        .hasMessage("expected 8 or 32 hex digits of address in row: " + bad);
  }
}
