package dev.ceiling.experiment;

import dev.ceiling.core.model.LinkHealth;
import dev.ceiling.rig.proxy.DelayProxy;
import dev.ceiling.rig.proxy.LinkWatch;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The relay's proxied links watched over one cell: opened when its load starts (warm-up included),
 * ended when the generator returns (grace period included), read as one {@link LinkHealth} per link
 * in the profile's order. Built from the handle's proxies; a relay with none gives an empty list,
 * so a cell says "no link to fail" rather than "not recorded".
 */
final class LinkWatches {
  private final Map<String, DelayProxy> proxies;

  LinkWatches(Map<String, DelayProxy> proxies) {
    this.proxies = new LinkedHashMap<>(proxies);
  }

  /** One cell's watch over every link. */
  final class Running {
    private final Map<String, LinkWatch> watches = new LinkedHashMap<>();

    private Running() {
      proxies.forEach((name, proxy) -> watches.put(name, proxy.watch()));
    }

    /** Ends every watch and reads it; each link once, in order. */
    List<LinkHealth> end() {
      List<LinkHealth> out = new ArrayList<>();
      watches.forEach(
          (name, watch) -> {
            LinkWatch.Reading r = watch.end();
            out.add(
                new LinkHealth(
                    name,
                    hostPort(proxies.get(name).target()),
                    r.opened(),
                    r.refused(),
                    r.resets(),
                    r.stalls(),
                    r.longestNoReply().toNanos() / 1e9,
                    r.failed() ? r.firstFailureAfter().toNanos() / 1e9 : null));
          });
      return out;
    }
  }

  /** Starts watching every link from now. */
  Running start() {
    return new Running();
  }

  private static String hostPort(InetSocketAddress a) {
    String host = a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }
}
