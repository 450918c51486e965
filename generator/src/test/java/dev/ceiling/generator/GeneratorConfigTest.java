package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Target;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorConfigTest {

  static Target target(String url, String host) {
    return new Target("a", url, host, List.of(List.of("h", "bench")), 1, 64);
  }

  @Test
  void describesItselfInOneExactLine() {
    GeneratorConfig c =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", "a.localhost:7777"), 250, 4, 8))
            .duration(Duration.ofSeconds(10))
            .build();
    assertThat(c.describe())
        .isEqualTo(
            "generate 10.0 s, segment 0/1, cap 10000/conn, grace period 10.0 s after the last"
                + " send, connect timeout 60.0 s, loopback only, max frame 1048576 B, 2 sender"
                + " threads, send-lag p99 bound 10.0 ms (max of 10.0 ms and 10% of the slot"
                + " interval; at least 2 x the wake floor): a@ws://127.0.0.1:7777/(host a.localhost:7777) 250/s over 4 conns, 8"
                + " ids, kind 1, tags [[h, bench]], 64 B");
    assertThat(c.offeredPerS()).isEqualTo(250.0);
  }

  @Test
  void printsTheSendLagBoundActuallyAppliedNotJustItsFloor() {
    // 10/s split over 2 segments: this process's slots are 200 ms apart, so 10% is 20 ms.
    GeneratorConfig c =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", null), 10, 1, 1))
            .load(new TargetLoad(target("ws://127.0.0.1:7778/", null), 4000, 1, 1))
            .segment(new dev.ceiling.generator.Segment(1, 2))
            .sendLagBound(Duration.ofMillis(1))
            .build();
    assertThat(c.sendLagBoundUs(0)).isEqualTo(20_000);
    assertThat(c.sendLagBoundUs(1)).isEqualTo(1_000);
    assertThat(c.describe())
        .contains(
            "send-lag p99 bound 20.0 / 1.0 ms (max of 1.0 ms and 10% of the slot interval; at"
                + " least 2 x the wake floor)");
  }

  @Test
  void toBuilderKeepsEveryFieldAndWithStartAtChangesOnlyTheStart() throws Exception {
    // Every field away from its default, so a field the copy forgets shows as a difference.
    GeneratorConfig c =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", "a.localhost:7777"), 250, 4, 8))
            .load(new TargetLoad(target("ws://127.0.0.1:7778/", null), 40, 2, 2))
            .duration(Duration.ofSeconds(7))
            .segment(new Segment(1, 3))
            .inflightCapPerConnection(17)
            .gracePeriod(Duration.ofSeconds(3))
            .connectTimeout(Duration.ofSeconds(9))
            .allowRemote(true)
            .maxFrameBytes(4096)
            .senderThreads(3)
            .sendLagBound(Duration.ofMillis(4))
            .warmup(Duration.ofSeconds(2))
            .windowListener(new WindowListener() {})
            .startAt(java.time.Instant.parse("2026-12-07T20:00:00Z"))
            .wakeFloorProbe(Duration.ZERO)
            .sourceAddresses(
                List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.3")))
            .build();
    assertThat(c.toBuilder().build()).isEqualTo(c);

    java.time.Instant later = java.time.Instant.parse("2026-12-07T20:00:05Z");
    GeneratorConfig moved = c.withStartAt(later);
    assertThat(moved.startAt()).isEqualTo(later);
    assertThat(moved.toBuilder().startAt(c.startAt()).build()).isEqualTo(c);
    // Partner: a copy that drops one field is not equal, so the check above can fail.
    assertThat(c.toBuilder().senderThreads(2).build()).isNotEqualTo(c);
  }

  @Test
  void reportsEveryProblemAtOnce() {
    GeneratorConfig.Builder b =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://relay.example.org:7777/", null), 10, 1, 1))
            .duration(Duration.ZERO)
            .inflightCapPerConnection(0)
            .gracePeriod(Duration.ofSeconds(-1))
            .maxFrameBytes(10)
            .senderThreads(0)
            .wakeFloorProbe(Duration.ofMillis(50));
    assertThat(b.problems())
        .containsExactlyInAnyOrder(
            "target 1 host 'relay.example.org' is not loopback (127.0.0.0/8 or ::1 written as an"
                + " address, or localhost and names under .localhost; other names are not resolved);"
                + " refusing without"
                + " --allow-remote,"
                + " because a load generator must not be pointed at relays you don't run",
            "duration must be > 0, got PT0S",
            "inflight cap must be >= 1 per connection, got 0",
            "grace period must be > 0, got PT-1S",
            "max frame bytes must be in [1024, 67108864], got 10",
            "sender threads must be in [1, 64], got 0",
            "wake floor probe must be 0 or in [100 ms, 10 s], got PT0.05S");
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not loopback")
        .hasMessageContaining("sender threads");
    assertThat(b.allowRemote(true).problems()).noneMatch(p -> p.contains("loopback"));
  }

  @Test
  void theWakeFloorProbeIsOffOrLongEnoughForAP99() {
    GeneratorConfig.Builder b =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", null), 10, 1, 1));
    assertThat(b.build().wakeFloorProbe()).isEqualTo(GeneratorConfig.DEFAULT_WAKE_FLOOR_PROBE);
    assertThat(b.wakeFloorProbe(Duration.ZERO).problems()).isEmpty();
    assertThat(b.wakeFloorProbe(GeneratorConfig.MIN_WAKE_FLOOR_PROBE).problems()).isEmpty();
    assertThat(b.wakeFloorProbe(Duration.ofMillis(99)).problems())
        .containsExactly("wake floor probe must be 0 or in [100 ms, 10 s], got PT0.099S");
    assertThat(b.wakeFloorProbe(Duration.ofSeconds(11)).problems()).hasSize(1);
    assertThat(b.wakeFloorProbe(null).problems()).hasSize(1);
  }

  @Test
  void targetLoadRejectsBadValuesWithTheRuleAndTheValue() {
    assertThat(TargetLoad.problems(target("ws://127.0.0.1:1/", null), Double.NaN, 0, 0))
        .containsExactly(
            "rate must be a finite number > 0 events/s, got NaN",
            "conns must be in [1, 10000], got 0",
            "identities must be in [1, 100000], got 0");
    Target tiny = new Target("a", "ws://127.0.0.1:1/", null, List.of(), 1, 8);
    assertThat(TargetLoad.problems(tiny, 1, 1, 1))
        .containsExactly("content must be >= 32 bytes so every event is unique, got 8");
  }

  @Test
  void segmentsParseAndOwnTheirSlots() {
    Segment s = Segment.parse("1/3");
    assertThat(s).isEqualTo(new Segment(1, 3));
    assertThat(s.owns(4)).isTrue();
    assertThat(s.owns(5)).isFalse();
    assertThat(s).hasToString("1/3");
    assertThatThrownBy(() -> Segment.parse("3/3"))
        .hasMessage("segment index must be in [0, 3), got 3");
    assertThatThrownBy(() -> Segment.parse("x"))
        .hasMessage("segment must look like i/N (e.g. 0/2), got 'x'");
  }

  @Test
  void localhostAndNamesUnderDotLocalhostAreLoopbackTargets() {
    for (String host : List.of("localhost", "localhost.", "a.localhost", "B.LocalHost")) {
      GeneratorConfig.Builder b =
          GeneratorConfig.builder()
              .load(new TargetLoad(target("ws://" + host + ":7777/", null), 10, 1, 1))
              .duration(Duration.ofSeconds(1));
      assertThat(b.problems()).as(host).isEmpty();
    }
  }

  @Test
  void aNameThatOnlyContainsLocalhostIsRefusedWithoutAllowRemote() {
    // The partner of the test above.
    GeneratorConfig.Builder b =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://localhost.evil.com:7777/", null), 10, 1, 1))
            .duration(Duration.ofSeconds(1));
    assertThat(b.problems())
        .containsExactly(
            "target 1 host 'localhost.evil.com' is not loopback (127.0.0.0/8 or ::1 written as an"
                + " address, or localhost and names under .localhost; other names are not"
                + " resolved); refusing without --allow-remote, because a load generator must not"
                + " be pointed at relays you don't run");
    assertThat(b.allowRemote(true).problems()).isEmpty();
  }

  static InetAddress ip(String literal) throws Exception {
    return InetAddress.getByName(literal);
  }

  @Test
  void sourceAddressesAreKeptInOrderAndNamedInTheLine() throws Exception {
    GeneratorConfig c =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", null), 10, 3, 1))
            .sourceAddresses(List.of(ip("127.0.0.3"), ip("127.0.0.2"), ip("::1")))
            .build();
    assertThat(c.sourceAddresses()).containsExactly(ip("127.0.0.3"), ip("127.0.0.2"), ip("::1"));
    assertThat(c.describe())
        .contains(", 3 source addresses 127.0.0.3,127.0.0.2,0:0:0:0:0:0:0:1: a@ws://");
    // Partner: by default the OS chooses, and the line says nothing of it.
    GeneratorConfig plain =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", null), 10, 3, 1))
            .build();
    assertThat(plain.sourceAddresses()).isEmpty();
    assertThat(plain.describe()).doesNotContain("source address");
  }

  @Test
  void badSourceAddressesAreAllNamedAtOnce() throws Exception {
    GeneratorConfig.Builder b =
        GeneratorConfig.builder()
            .load(new TargetLoad(target("ws://127.0.0.1:7777/", null), 10, 2, 1))
            .load(new TargetLoad(target("ws://10.1.2.3:7777/", null), 10, 1, 1))
            .allowRemote(true)
            .sourceAddresses(
                List.of(ip("127.0.0.2"), ip("10.0.0.1"), ip("127.0.0.2"), ip("127.0.0.4")));
    assertThat(b.problems())
        .containsExactly(
            "source address 10.0.0.1 is not loopback (127.0.0.0/8 or ::1); load must stay on this"
                + " machine",
            "source address 127.0.0.2 is listed more than once",
            "target 2 host '10.1.2.3' is not loopback, and a connection bound to a loopback source"
                + " address cannot reach it",
            "source addresses (4) must not outnumber the connections (3): an address no"
                + " connection uses is no source");
    assertThatThrownBy(b::build).hasMessageContaining("source address 10.0.0.1 is not loopback");
  }
}
