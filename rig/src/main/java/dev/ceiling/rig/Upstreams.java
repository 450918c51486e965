package dev.ceiling.rig;

import com.google.common.net.HostAndPort;
import dev.ceiling.rig.proxy.DelayProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The upstream links of one rig: a delay proxy per upstream (at zero delay until someone sets one),
 * or direct routes. Proxies live in this process, so they are closed with the relay.
 */
final class Upstreams implements AutoCloseable {
  private final List<UpstreamRoute> routes;
  private final Map<String, DelayProxy> proxies;

  private Upstreams(List<UpstreamRoute> routes, Map<String, DelayProxy> proxies) {
    this.routes = List.copyOf(routes);
    this.proxies = Collections.unmodifiableMap(proxies);
  }

  static Upstreams none() {
    return new Upstreams(List.of(), new LinkedHashMap<>());
  }

  /**
   * Opens the links: proxies when {@code proxied}, else direct routes.
   *
   * @throws RigException START_FAILED when a proxy cannot listen (the ones already open are closed)
   */
  static Upstreams open(List<UpstreamRoute> targets, boolean proxied) throws RigException {
    if (!proxied) {
      return new Upstreams(targets, new LinkedHashMap<>());
    }
    List<UpstreamRoute> routes = new ArrayList<>();
    Map<String, DelayProxy> proxies = new LinkedHashMap<>();
    try {
      for (UpstreamRoute t : targets) {
        DelayProxy p = DelayProxy.start(t.targetSocket(), Duration.ZERO);
        proxies.put(t.name(), p);
        HostAndPort at = HostAndPort.fromParts("127.0.0.1", p.address().getPort());
        routes.add(new UpstreamRoute(t.name(), t.target(), at, true));
      }
    } catch (IOException e) {
      proxies.values().forEach(DelayProxy::close);
      throw new RigException(
          RigException.Kind.START_FAILED, "cannot start a delay proxy for an upstream: " + e, e);
    }
    return new Upstreams(routes, proxies);
  }

  List<UpstreamRoute> routes() {
    return routes;
  }

  /** Name to proxy, in declaration order; empty when linked directly. */
  Map<String, DelayProxy> proxies() {
    return proxies;
  }

  @Override
  public void close() {
    proxies.values().forEach(DelayProxy::close);
  }
}
