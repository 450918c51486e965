package dev.ceiling.junit;

import dev.ceiling.core.net.LoopbackPorts;
import java.util.List;

/** Free loopback TCP ports for the relays this extension starts. Thread-safe. */
final class FreePorts {
  private FreePorts() {}

  /**
   * {@code n} distinct ports that were free on 127.0.0.1 a moment ago, below the kernel's ephemeral
   * range where it can ({@link LoopbackPorts}); another process that names one may still take it
   * before the relay binds it, which the rig then reports as PORT_IN_USE.
   *
   * @throws java.io.UncheckedIOException when no socket can be bound
   */
  static List<Integer> pick(int n) {
    return LoopbackPorts.pick(n);
  }
}
