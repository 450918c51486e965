package dev.ceiling.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {
  /** Linux's default ephemeral range starts here (/proc/sys/net/ipv4/ip_local_port_range). */
  private static final int LINUX_DEFAULT_LOW = 32_768;

  @Test
  void picksDistinctBindablePortsBelowTheEphemeralRange() throws Exception {
    long seed = new Random().nextLong();
    List<Integer> ports = LoopbackPorts.pick(20, new Random(seed), LINUX_DEFAULT_LOW);
    assertThat(ports)
        .as("seed %d", seed)
        .hasSize(20)
        .doesNotHaveDuplicates()
        .allSatisfy(p -> assertThat(p).isBetween(LoopbackPorts.LOWEST, LINUX_DEFAULT_LOW - 1));
    for (int p : ports) {
      try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
        assertThat(s.getLocalPort()).as("seed %d", seed).isEqualTo(p);
      }
    }
  }

  /**
   * Mutant: with no room below the range (as where it cannot be read) the kernel picks, and its
   * ports come from the ephemeral range, so the check above, that none does, must fail for them.
   */
  @Test
  void theKernelsPicksFailTheSameCheck() {
    int low = LoopbackPorts.ephemeralLow();
    List<Integer> kernels = LoopbackPorts.pick(20, new Random(1), LoopbackPorts.LOWEST);
    assertThat(kernels).doesNotHaveDuplicates().hasSize(20);
    if (low > LoopbackPorts.LOWEST) {
      // On Linux: every kernel pick lies in the range the real pick stays below.
      assertThat(kernels).allSatisfy(p -> assertThat(p).isGreaterThanOrEqualTo(low));
    }
  }

  @Test
  void aPortInUseIsNotPicked() throws Exception {
    // Every candidate but one is taken: a range of two ports above LOWEST, one held here.
    int low = LoopbackPorts.LOWEST + LoopbackPorts.MIN_ROOM;
    long seed = new Random().nextLong();
    List<Integer> first = LoopbackPorts.pick(1, new Random(seed), low);
    try (ServerSocket held = new ServerSocket(first.get(0), 1, InetAddress.getLoopbackAddress())) {
      // The same seed draws the held port first; the pick must move past it.
      List<Integer> again = LoopbackPorts.pick(1, new Random(seed), low);
      assertThat(again.get(0)).as("seed %d", seed).isNotEqualTo(held.getLocalPort());
    }
  }
}
