package dev.ceiling.generator;

import dev.ceiling.core.net.Loopback;
import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules for a run's source addresses ({@link GeneratorConfig#sourceAddresses()}): the loopback
 * addresses its connections are bound to, round-robin, so that a relay sees M clients.
 */
public final class SourceAddresses {
  private SourceAddresses() {}

  /** Most source addresses: each takes a WebSocket client with its own selector thread. */
  public static final int MAX = 256;

  /**
   * Every problem with {@code sources} as the source addresses of {@code loads}; empty when there
   * is none. Loopback only, because a generator's load must stay on this machine: a source address
   * off loopback would put it on a network. An address listed twice would make M overstate the
   * sources a relay sees, and so would more addresses than connections.
   *
   * @param sources the addresses, in order
   * @param loads the targets, or null to check the addresses alone (a caller whose targets did not
   *     all parse)
   * @return one line per problem, in order
   */
  public static List<String> problems(List<InetAddress> sources, List<TargetLoad> loads) {
    List<String> p = new ArrayList<>();
    if (sources == null) {
      p.add("source addresses must not be null (use an empty list: the OS chooses)");
      return p;
    }
    if (sources.isEmpty()) {
      return p;
    }
    if (sources.size() > MAX) {
      p.add("source addresses must be at most " + MAX + ", got " + sources.size());
    }
    Set<InetAddress> seen = new HashSet<>();
    for (InetAddress a : sources) {
      if (a == null) {
        p.add("source addresses must not contain null");
      } else if (!a.isLoopbackAddress()) {
        p.add(
            "source address "
                + a.getHostAddress()
                + " is not loopback (127.0.0.0/8 or ::1); load must stay on this machine");
      } else if (!seen.add(a)) {
        p.add("source address " + a.getHostAddress() + " is listed more than once");
      }
    }
    if (loads == null) {
      return p;
    }
    int connections = 0;
    for (int i = 0; i < loads.size(); i++) {
      TargetLoad l = loads.get(i);
      if (l == null) {
        continue;
      }
      connections += l.connections();
      String host = URI.create(l.target().url()).getHost();
      if (!Loopback.isLoopbackHost(host)) {
        p.add(
            "target "
                + (i + 1)
                + " host '"
                + host
                + "' is not loopback, and a connection bound to a loopback source address cannot"
                + " reach it");
      }
    }
    if (sources.size() > connections) {
      p.add(
          "source addresses ("
              + sources.size()
              + ") must not outnumber the connections ("
              + connections
              + "): an address no connection uses is no source");
    }
    return p;
  }

  /** The source addresses in one phrase: how many, and which. */
  static String describe(List<InetAddress> sources) {
    List<String> names = new ArrayList<>();
    sources.forEach(a -> names.add(a.getHostAddress()));
    return sources.size()
        + " source address"
        + (sources.size() == 1 ? " " : "es ")
        + String.join(",", names);
  }
}
