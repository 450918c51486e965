package dev.ceiling.rig.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** A probe's serialized form (what the pid file keeps) reads back as the same probe. */
class ProbeTest {
  @Test
  void eachKindRoundTripsThroughItsSerializedForm() {
    for (Probe p :
        new Probe[] {
          new Probe.HttpHealth(URI.create("http://127.0.0.1:47100/health")),
          new Probe.WebSocketHandshake(URI.create("ws://127.0.0.1:47100/")),
          Probe.TcpAccept.loopback(47100)
        }) {
      assertThat(Probe.parse(p.serialized())).as(p.serialized()).hasValue(p);
    }
  }

  /** The forms a pid file written before the typed probe holds still read as the same kind. */
  @Test
  void thePidFileFormIsTheUrlAsBefore() {
    assertThat(Probe.TcpAccept.loopback(9).serialized()).isEqualTo("tcp://127.0.0.1:9");
    assertThat(Probe.parse("https://localhost/h")).containsInstanceOf(Probe.HttpHealth.class);
    assertThat(Probe.parse("wss://localhost/")).containsInstanceOf(Probe.WebSocketHandshake.class);
  }

  /** Partner: what is none of the three kinds is no probe, rather than some default. */
  @Test
  void anythingElseIsNoProbe() {
    assertThat(Probe.parse("ftp://127.0.0.1/")).isEmpty();
    assertThat(Probe.parse("tcp://127.0.0.1")).isEmpty();
    assertThat(Probe.parse("unknown")).isEmpty();
    assertThat(Probe.parse(null)).isEmpty();
  }

  @Test
  void describeSaysWhatShouldBeTrue() {
    assertThat(new Probe.HttpHealth(URI.create("http://127.0.0.1:1/health")).describe())
        .isEqualTo("GET http://127.0.0.1:1/health to return 200");
    assertThat(Probe.TcpAccept.loopback(1).describe())
        .isEqualTo("127.0.0.1:1 to accept a connection");
  }
}
