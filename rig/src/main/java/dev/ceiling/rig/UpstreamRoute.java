package dev.ceiling.rig;

import com.google.common.net.HostAndPort;
import com.google.common.net.InetAddresses;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.core.net.LoopbackAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One declared upstream at {@code up}: where the real service is, and the address the relay is
 * given for it (a delay proxy's, or the target itself when linked directly).
 *
 * @param name the upstream's name
 * @param target the real service, expanded
 * @param address what the relay's placeholders carry
 * @param proxied true when {@code address} is a delay proxy in this process
 */
record UpstreamRoute(String name, HostAndPort target, HostAndPort address, boolean proxied) {
  UpstreamRoute {
    Objects.requireNonNull(name, "name must not be null");
    Objects.requireNonNull(target, "target must not be null");
    Objects.requireNonNull(address, "address must not be null");
  }

  /** The route straight to the target. */
  static UpstreamRoute direct(String name, HostAndPort target) {
    return new UpstreamRoute(name, target, target, false);
  }

  /**
   * The target as a socket address: an address literal as is; a loopback name ({@code localhost})
   * as the address {@link LoopbackAddress} chooses for it now, never looked up; any other name
   * (allowed remote only) left unresolved for the proxy to resolve when it connects.
   */
  InetSocketAddress targetSocket() {
    String host = target.getHost();
    if (Loopback.isLoopbackName(host)) {
      return new InetSocketAddress(
          LoopbackAddress.choose(host, target.getPort(), LoopbackAddress.TRIAL).address(),
          target.getPort());
    }
    return InetAddresses.isInetAddress(host)
        ? new InetSocketAddress(InetAddresses.forString(host), target.getPort())
        : InetSocketAddress.createUnresolved(host, target.getPort());
  }
}
