package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.net.HostAndPort;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.rig.RelayProfile.UpstreamTemplate;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Declaring upstreams: reading, every bad declaration at once, and planning their addresses. */
class UpstreamsProfileTest {
  @TempDir Path dir;

  /** A relay with a PostgreSQL link and a Redis link, as docs/RIG.md declares one. */
  private static final String TWO_LINKS =
      """
      {
        "name": "two-links",
        "command": ["relay", "--rig-id", "${rig_id}", "--port", "${port}",
                    "--database-url", "postgresql://${upstream.db.address}/relay",
                    "--redis-host", "${upstream.cache.host}",
                    "--redis-port", "${upstream.cache.port}"],
        "ports": {"port": 47100},
        "parameters": {"pg_port": "5432"},
        "upstreams": [{"name": "db", "target": "127.0.0.1:${pg_port}"},
                      {"name": "cache", "target": "[::1]:6379"}],
        "health_url": "http://127.0.0.1:${port}/health",
        "metrics_url": "http://127.0.0.1:${port}/metrics",
        "treatment_arm": "on",
        "control_arm": "off",
        "arms": {"on": {"args": ["--audit", "on"]}, "off": {"args": ["--audit", "off"]}},
        "metric_mapping": {"audit_log_count": "x_count"},
        "targets": [{"community": "a", "url": "ws://127.0.0.1:${port}/"}]
      }
      """;

  private static final LaunchPlanner PLANNER =
      new LaunchPlanner(() -> Path.of("/nonexistent/relay.jar"));

  @Test
  void upstreamsReadInOrderAndDefineTheirAddressPlaceholders() throws RigException {
    RelayProfile p = ProfileReader.read(TWO_LINKS, "two.json", null);
    assertThat(p.upstreams())
        .containsExactly(
            new UpstreamTemplate("db", "127.0.0.1:${pg_port}"),
            new UpstreamTemplate("cache", "[::1]:6379"));
  }

  @Test
  void everyBadUpstreamIsNamedAtOnce() {
    String badUpstreams =
        """
        "upstreams": [{"name": "db", "target": "127.0.0.1"},
                      {"name": "db", "target": "127.0.0.1:5432"},
                      {"name": "a.b", "target": "127.0.0.1:70000"},
                      {"target": "127.0.0.1:${nope}", "port": 1},
                      "cache"],
        """;
    String bad =
        TWO_LINKS.substring(0, TWO_LINKS.indexOf("\"upstreams\""))
            + badUpstreams
            + TWO_LINKS.substring(TWO_LINKS.indexOf("\"health_url\""));
    assertThatThrownBy(() -> ProfileReader.read(bad, "bad.json", null))
        .isInstanceOf(RigException.class)
        .extracting(e -> ((RigException) e).problems())
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.list(String.class))
        .contains(
            "$.upstreams[0].target: expected host:port, e.g. 127.0.0.1:5432, got \"127.0.0.1\"",
            "$.upstreams[1].name: \"db\" is declared twice (${upstream.db.host})",
            "$.upstreams[2].name: must match [A-Za-z0-9_-]+ to be usable as ${upstream.a.b.port},"
                + " got \"a.b\"",
            "$.upstreams[2].target: expected host:port with a port in [1, 65535], e.g."
                + " 127.0.0.1:5432, got \"127.0.0.1:70000\"",
            "$.upstreams[3].port: unknown field; expected one of [name, target]",
            "$.upstreams[3].name: missing required field",
            "$.upstreams[3].target: unknown placeholder ${nope}; known: [pg_port, port]",
            "$.upstreams[4]: expected an object {\"name\", \"target\"}, got \"cache\"",
            // The command's ${upstream.cache.*} is unknown: no valid upstream is named cache.
            "$.command[8]: unknown placeholder ${upstream.cache.host}; known: [data_dir, java,"
                + " pg_port, port, profile_dir, queue_capacity, reference_relay_jar, rig_id,"
                + " state_dir, upstream.db.address, upstream.db.host, upstream.db.port]");
  }

  @Test
  void thePlanGivesTheRelayEachLinksAddressNotTheTarget() throws RigException {
    RelayProfile p = ProfileReader.read(TWO_LINKS, "two.json", null);
    UpOptions o =
        UpOptions.of(p, "on", dir.resolve("s")).withOverrides(java.util.Map.of("pg_port", "5433"));
    List<UpstreamRoute> targets = UpstreamPlans.targets(o);
    assertThat(targets)
        .containsExactly(
            UpstreamRoute.direct("db", HostAndPort.fromString("127.0.0.1:5433")),
            UpstreamRoute.direct("cache", HostAndPort.fromString("[::1]:6379")));
    List<UpstreamRoute> viaProxies =
        List.of(
            new UpstreamRoute(
                "db", targets.get(0).target(), HostAndPort.fromParts("127.0.0.1", 40001), true),
            new UpstreamRoute(
                "cache", targets.get(1).target(), HostAndPort.fromParts("127.0.0.1", 40002), true));
    LaunchPlan plan = PLANNER.plan(o, "ceiling-rig-x", viaProxies);
    assertThat(plan.command())
        .containsSubsequence(
            "--database-url",
            "postgresql://127.0.0.1:40001/relay",
            "--redis-host",
            "127.0.0.1",
            "--redis-port",
            "40002");
    assertThat(String.join(" ", plan.command())).doesNotContain("5433", "6379");
    assertThat(plan.upstreams()).isEqualTo(viaProxies);
  }

  @Test
  void aRemoteTargetIsRefusedNamingItsFieldUnlessAllowed() throws RigException {
    RelayProfile p =
        ProfileReader.read(
            TWO_LINKS
                .replace("127.0.0.1:${pg_port}", "db.example.com:${pg_port}")
                .replace("[::1]:6379", "localhost.example.com:6379"),
            "remote.json",
            null);
    UpOptions o = UpOptions.of(p, "on", dir.resolve("s"));
    assertThatThrownBy(() -> UpstreamPlans.targets(o))
        .isInstanceOf(RigException.class)
        .satisfies(
            e -> assertThat(((RigException) e).kind()).isEqualTo(RigException.Kind.BAD_INPUT))
        .extracting(e -> ((RigException) e).problems())
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.list(String.class))
        .containsExactly(
            "$.upstreams[0].target must point at loopback ("
                + Loopback.ACCEPTED
                + ") unless remote upstreams are allowed, got db.example.com:5432",
            "$.upstreams[1].target must point at loopback ("
                + Loopback.ACCEPTED
                + ") unless remote upstreams are allowed, got localhost.example.com:6379");
    assertThat(UpstreamPlans.targets(o.withAllowRemoteUpstreams(true)))
        .extracting(r -> r.target().toString())
        .containsExactly("db.example.com:5432", "localhost.example.com:6379");
  }

  @Test
  void localhostAndANameUnderDotLocalhostAreLoopbackTargets() throws RigException {
    // The partner of the refusal above: these names are loopback by definition, no lookup.
    RelayProfile p =
        ProfileReader.read(
            TWO_LINKS
                .replace("127.0.0.1:${pg_port}", "localhost:${pg_port}")
                .replace("[::1]:6379", "cache.localhost:6379"),
            "local.json",
            null);
    UpOptions o = UpOptions.of(p, "on", dir.resolve("s"));
    assertThat(UpstreamPlans.targets(o))
        .extracting(r -> r.target().toString())
        .containsExactly("localhost:5432", "cache.localhost:6379");
  }

  @Test
  void aTargetThatExpandsToNoPortIsRefusedAtPlanning() throws RigException {
    RelayProfile p = ProfileReader.read(TWO_LINKS, "two.json", null);
    UpOptions o =
        UpOptions.of(p, "on", dir.resolve("s")).withOverrides(java.util.Map.of("pg_port", "0"));
    assertThatThrownBy(() -> UpstreamPlans.targets(o))
        .isInstanceOf(RigException.class)
        .hasMessage(
            "two.json: $.upstreams[0].target: expected host:port, e.g. 127.0.0.1:5432, got"
                + " \"127.0.0.1:0\"");
  }
}
