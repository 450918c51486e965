package dev.ceiling.rig;

import com.google.common.net.HostAndPort;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.rig.RelayProfile.UpstreamTemplate;
import dev.ceiling.rig.internal.Templates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The planning of a profile's upstreams, pure like {@link LaunchPlanner}: each target expanded and
 * checked before anything starts, then the placeholders that carry each link's address.
 */
final class UpstreamPlans {
  private UpstreamPlans() {}

  /**
   * Each upstream's target, expanded over the effective ports and parameters, as a direct route.
   *
   * @throws RigException BAD_INPUT naming every target that is not host:port, or not loopback
   *     without {@link UpOptions#allowRemoteUpstreams()}
   */
  static List<UpstreamRoute> targets(UpOptions o) throws RigException {
    RelayProfile p = o.profile();
    Map<String, String> vars = new TreeMap<>();
    o.effectivePorts().forEach((k, v) -> vars.put(k, Integer.toString(v)));
    p.parameters().forEach((k, v) -> vars.put(k, o.overrides().getOrDefault(k, v)));
    List<String> problems = new ArrayList<>();
    List<UpstreamRoute> out = new ArrayList<>();
    for (int i = 0; i < p.upstreams().size(); i++) {
      UpstreamTemplate u = p.upstreams().get(i);
      String field = "$.upstreams[" + i + "].target";
      String target = Templates.expand(u.target(), vars);
      HostAndPort hp;
      try {
        hp = HostAndPort.fromString(target);
      } catch (IllegalArgumentException e) {
        hp = null;
      }
      if (hp == null || !hp.hasPort() || hp.getPort() < 1 || hp.getHost().isEmpty()) {
        problems.add(field + ": expected host:port, e.g. 127.0.0.1:5432, got \"" + target + "\"");
      } else if (!o.allowRemoteUpstreams() && !Loopback.isLoopbackHost(hp.getHost())) {
        problems.add(
            field
                + " must point at loopback ("
                + Loopback.ACCEPTED
                + ") unless remote upstreams are allowed, got "
                + target);
      } else {
        out.add(UpstreamRoute.direct(u.name(), hp));
      }
    }
    LaunchPlanner.refuseIfAny(p, problems);
    return out;
  }

  /** Puts {@code upstream.NAME.host|port|address} for each route into {@code vars}. */
  static void placeholders(List<UpstreamRoute> routes, Map<String, String> vars) {
    for (UpstreamRoute r : routes) {
      UpstreamTemplate u = new UpstreamTemplate(r.name(), r.target().toString());
      vars.put(u.placeholder("host"), r.address().getHost());
      vars.put(u.placeholder("port"), Integer.toString(r.address().getPort()));
      vars.put(u.placeholder("address"), r.address().toString());
    }
  }
}
