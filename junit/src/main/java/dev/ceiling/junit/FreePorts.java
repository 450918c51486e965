package dev.ceiling.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free loopback TCP ports, picked by the kernel. Thread-safe. */
final class FreePorts {
  private FreePorts() {}

  /**
   * {@code n} distinct ports that were free on 127.0.0.1 a moment ago. All sockets are held until
   * every port is picked, so the kernel cannot hand out one port twice; another process may still
   * take one before the relay binds it, which the rig then reports as PORT_IN_USE.
   *
   * @throws UncheckedIOException when no socket can be bound
   */
  static List<Integer> pick(int n) {
    List<ServerSocket> held = new ArrayList<>();
    try {
      List<Integer> ports = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        held.add(s);
        ports.add(s.getLocalPort());
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind a free port on 127.0.0.1: " + e.getMessage(), e);
    } finally {
      for (ServerSocket s : held) {
        try {
          s.close();
        } catch (IOException e) {
          // Nothing to do: the port was only probed.
        }
      }
    }
  }
}
