package dev.ceiling.core.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A loopback port that was free a moment ago, for a relay a test starts. Another process may take
 * it before the relay binds; the rig then fails naming the port, which no test here mistakes for a
 * result.
 */
public final class FreePorts {
  private FreePorts() {}

  /** A port on loopback that nothing listened on when this returned. */
  public static int one() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
