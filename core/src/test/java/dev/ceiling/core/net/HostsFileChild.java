package dev.ceiling.core.net;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * Runs in a child JVM started with {@code -Djdk.net.hosts.file=FILE} by {@link
 * LoopbackHostsFileIT}: prints, one {@code key=value} a line, what this JVM's resolver makes of
 * each name given and what the loopback rule says of it, then where {@code localhost} connects.
 */
public final class HostsFileChild {
  private HostsFileChild() {}

  public static void main(String[] args) throws Exception {
    for (String name : args) {
      String resolved;
      try {
        resolved = InetAddress.getAllByName(name)[0].getHostAddress();
      } catch (UnknownHostException e) {
        resolved = "unknown";
      }
      System.out.println(name + ".resolves=" + resolved);
      System.out.println(name + ".loopback=" + Loopback.isLoopbackHost(name));
    }
    try (ServerSocket listening =
        new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
      System.out.println(
          "localhost.connects="
              + LoopbackAddress.choose("localhost", listening.getLocalPort(), Duration.ofSeconds(2))
                  .urlHost());
    }
  }
}
