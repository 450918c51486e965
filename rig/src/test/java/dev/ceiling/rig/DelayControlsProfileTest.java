package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.rig.RelayProfile.DelayControlTemplate;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Declaring delay controls (a delay the relay injects itself, settable while it runs): reading,
 * every bad declaration at once, the links a sweep may name, and the plan's loopback rule.
 */
class DelayControlsProfileTest {
  @TempDir Path dir;

  private static final String CONTROLLED =
      """
      {
        "name": "controlled",
        "command": ["relay", "--rig-id", "${rig_id}", "--port", "${port}"],
        "ports": {"port": 47100},
        "parameters": {"host": "127.0.0.1"},
        "upstreams": [{"name": "db", "target": "127.0.0.1:5432"}],
        "delay_controls": [{"name": "builtin", "url": "http://${host}:${port}/delay",
                            "turns_metric": "relay_exchanges_total"}],
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
  void controlsReadAndFollowTheUpstreamsAmongTheLinks() throws RigException {
    RelayProfile p = ProfileReader.read(CONTROLLED, "c.json", null);
    assertThat(p.delayControls())
        .containsExactly(
            new DelayControlTemplate(
                "builtin", "http://${host}:${port}/delay", "relay_exchanges_total", null));
    assertThat(p.linkNames()).containsExactly("db", "builtin");
    assertThat(RelayProfile.builtIn("reference").linkNames()).containsExactly("builtin");
    assertThat(RelayProfile.builtIn("reference-linked").linkNames()).containsExactly("db");
  }

  @Test
  void everyBadControlIsNamedAtOnce() {
    String badControls =
        """
        "delay_controls": [{"name": "db", "url": "http://127.0.0.1:${port}/d", "turns_metric": "t"},
                           {"name": "a.b", "url": "http://127.0.0.1:${nope}/d",
                            "turns_metric": "t", "delay_ms": 1},
                           {"name": "c"},
                           "builtin"],
        """;
    String bad =
        CONTROLLED.substring(0, CONTROLLED.indexOf("\"delay_controls\""))
            + badControls
            + CONTROLLED.substring(CONTROLLED.indexOf("\"health_url\""));
    assertThat(bad).isNotEqualTo(CONTROLLED);
    assertThatThrownBy(() -> ProfileReader.read(bad, "bad.json", null))
        .isInstanceOf(RigException.class)
        .extracting(e -> ((RigException) e).problems())
        .asInstanceOf(InstanceOfAssertFactories.list(String.class))
        .contains(
            "$.delay_controls[0].name: \"db\" names another upstream or control; a link has one"
                + " name",
            "$.delay_controls[1].delay_ms: unknown field; expected one of [lateness_metric, name,"
                + " turns_metric, url]",
            "$.delay_controls[1].url: unknown placeholder ${nope}; known: [data_dir, host, java,"
                + " port, profile_dir, queue_capacity, reference_relay_jar, rig_id, state_dir,"
                + " upstream.db.address, upstream.db.host, upstream.db.port]",
            "$.delay_controls[1].name: must match [A-Za-z0-9_-]+, got \"a.b\"",
            "$.delay_controls[2].url: missing required field",
            "$.delay_controls[2].turns_metric: missing required field",
            "$.delay_controls[3]: expected an object {\"name\", \"url\", \"turns_metric\"}, got"
                + " \"builtin\"");
  }

  @Test
  void aControlNeedsTheMetricsItsTurnsAreReadFrom() {
    String noMetrics =
        CONTROLLED
            .replace("\"metrics_url\": \"http://127.0.0.1:${port}/metrics\",", "")
            .replace(
                "\"metric_mapping\": {\"audit_log_count\": \"x_count\"},",
                "\"contamination_evidence\": \"client\",");
    assertThatThrownBy(() -> ProfileReader.read(noMetrics, "nm.json", null))
        .isInstanceOf(RigException.class)
        .extracting(e -> ((RigException) e).problems())
        .asInstanceOf(InstanceOfAssertFactories.list(String.class))
        .contains("$.delay_controls: a control's turns are read from metrics_url, which is absent");
  }

  @Test
  void thePlanExpandsAControlAndRefusesOneOffLoopback() throws RigException {
    RelayProfile p = ProfileReader.read(CONTROLLED, "c.json", null);
    UpOptions o = UpOptions.of(p, "on", dir.resolve("s"));
    LaunchPlan plan = PLANNER.plan(o, "ceiling-rig-x");
    assertThat(LaunchPlanner.delayControls(p, plan.placeholders(), plan.metricsUrl()))
        .containsExactly(
            new DelayControl(
                "builtin",
                URI.create("http://127.0.0.1:47100/delay"),
                "relay_exchanges_total",
                null,
                URI.create("http://127.0.0.1:47100/metrics")));
    UpOptions remote = o.withOverrides(Map.of("host", "192.0.2.7"));
    assertThatThrownBy(() -> PLANNER.plan(remote, "ceiling-rig-x"))
        .isInstanceOf(RigException.class)
        .hasMessageContaining("delay_controls url")
        .hasMessageContaining("192.0.2.7");
  }
}
