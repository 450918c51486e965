package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.rig.RigHandle;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The extension against the real reference relay, started as a child JVM by the rig. */
@WithRelay(
    profile = "reference",
    arm = "on",
    params = {"exchange_delay_ms=0.5"})
class RelayRigIT {

  @Test
  void injectsTheDescriptorOfAHealthyRelay(
      RigDescriptor relay, List<Target> targets, RigHandle handle) throws Exception {
    assertThat(relay.profile()).isEqualTo("reference");
    assertThat(relay.arm()).isEqualTo("on");
    assertThat(relay.ownsRelay()).isTrue();
    assertThat(relay.databaseReset()).isTrue();
    assertThat(targets).isEqualTo(relay.targets()).hasSize(2);
    assertThat(handle.descriptor()).isEqualTo(relay);
    assertThat(ProcessHandle.of(relay.relayPid()).map(ProcessHandle::isAlive)).contains(true);
    assertThat(Probes.healthStatus(relay.healthUrl())).isEqualTo(200);
    // The parameter reached the relay's command line.
    assertThat(relay.relayCommand()).containsSubsequence("--audit-exchange-delay-ms", "0.5");
    // Free ports, not the profile's fixed 47100/47101, so parallel classes cannot collide.
    assertThat(URI.create(relay.healthUrl()).getPort()).isNotIn(47100, 47101);
    assertThat(handle.stateDir())
        .startsWith(RelaySpec.DEFAULT_STATE_ROOT.toAbsolutePath())
        .satisfies(p -> assertThat(p.getFileName().toString()).matches("RelayRigIT-[0-9a-f]{8}"));
  }

  @Test
  void mutantHealthProbeOfNothingIsNot200() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    assertThat(Probes.healthStatus("http://127.0.0.1:" + port + "/health")).isEqualTo(-1);
  }

  @Test
  void mutantGoneCheckOnALiveProcessIsCaught(RigDescriptor relay) {
    assertThatThrownBy(() -> Probes.assertGone(relay.relayPid()))
        .isInstanceOf(AssertionError.class);
  }

  /** A nested class shares the enclosing class's relay instead of starting its own. */
  @Nested
  class SharedRelay {
    @Test
    void sharesTheEnclosingRelay(RigDescriptor relay, RigHandle handle) throws Exception {
      assertThat(handle.stateDir().getFileName().toString()).startsWith("RelayRigIT-");
      assertThat(Probes.healthStatus(relay.healthUrl())).isEqualTo(200);
    }
  }
}
