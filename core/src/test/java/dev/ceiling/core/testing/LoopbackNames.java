package dev.ceiling.core.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** Names that resolve to loopback on this machine, proved by resolving them, for refusal tests. */
public final class LoopbackNames {
  private LoopbackNames() {}

  /**
   * Returns {@code localhost} after proving that it resolves to loopback addresses only here; skips
   * the test, saying what it resolved to, when it does not.
   */
  public static String localhost() throws UnknownHostException {
    InetAddress[] resolved = InetAddress.getAllByName("localhost");
    assumeTrue(
        resolved.length > 0 && Arrays.stream(resolved).allMatch(InetAddress::isLoopbackAddress),
        "localhost does not resolve to loopback here: " + Arrays.toString(resolved));
    return "localhost";
  }
}
