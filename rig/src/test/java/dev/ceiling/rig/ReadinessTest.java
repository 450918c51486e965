package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The profile's readiness field reads into its typed value and writes back unchanged. */
class ReadinessTest {
  @Test
  void eachKindRoundTrips() {
    for (Readiness r :
        new Readiness[] {
          new Readiness.HttpHealth(),
          new Readiness.WebSocketHandshake(),
          new Readiness.TcpAccept("db")
        }) {
      assertThat(Readiness.parse(r.serialized(), Set.of("db"))).isEqualTo(r);
    }
    assertThat(new Readiness.TcpAccept("db").serialized()).isEqualTo("tcp:db");
  }

  /** Partner: a tcp readiness must name a declared port; "health" with a typo is no readiness. */
  @Test
  void anUndeclaredPortOrUnknownWordIsRefused() {
    assertThatThrownBy(() -> Readiness.parse("tcp:db", Set.of("port")))
        .hasMessageContaining("with a port from $.ports [port], got \"tcp:db\"");
    assertThatThrownBy(() -> Readiness.parse("healthy", Set.of("port")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
