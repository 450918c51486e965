package dev.ceiling.core.testing;

import dev.ceiling.core.net.LoopbackPorts;

/**
 * A loopback port that was free a moment ago, for a relay a test starts: below the kernel's
 * ephemeral range where it can ({@link LoopbackPorts}), so no process's outgoing connection takes
 * it in the meantime. Another process that names it may still take it before the relay binds; the
 * rig then fails naming the port, which no test here mistakes for a result.
 */
public final class FreePorts {
  private FreePorts() {}

  /** A port on loopback that nothing listened on when this returned. */
  public static int one() {
    return LoopbackPorts.one();
  }
}
