package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.rig.internal.Probe;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The planner is pure: these build plans from profiles and options, and start nothing. */
class LaunchPlannerTest {
  private static final String RIG_ID = "ceiling-rig-plan";

  private static final String PROFILE =
      """
      {
        "name": "plan",
        "command": ["relay", "--rig-id", "${rig_id}", "--port", "${port}", "--data", "${data_dir}"],
        "environment": {"MODE": "${mode}"},
        "ports": {"port": 47100, "admin": 47101},
        "parameters": {"mode": "fast", "api_token": "hunter2"},
        "health_url": "http://127.0.0.1:${port}/health",
        "metrics_url": "http://127.0.0.1:${admin}/metrics",
        "treatment_arm": "on",
        "control_arm": "off",
        "arms": {"on": {"args": ["--audit", "on"]}, "off": {"env": {"AUDIT": "off"}}},
        "reset": {"args": ["--reset"]},
        "limiter": [{"name": "limit", "value": "1000", "args": ["--limit", "${value}"]}],
        "metric_mapping": {"audit_log_count": "x_count"},
        "targets": [{"community": "a", "url": "ws://127.0.0.1:${port}/", "host_header": "a.localhost"}]
      }
      """;

  @TempDir Path dir;

  private final LaunchPlanner planner =
      new LaunchPlanner(
          () -> {
            throw new AssertionError("the profile does not name the reference relay's jar");
          });

  private static RelayProfile profile(String json) throws RigException {
    return ProfileReader.read(json, "plan.json", null);
  }

  @Test
  void aPlanExpandsCommandArmLimiterResetAndExtraArgsInThatOrder() throws RigException {
    UpOptions o =
        UpOptions.of(profile(PROFILE), "on", dir.resolve("s"))
            .withReset(true)
            .withOverrides(Map.of("port", "47200"))
            .withExtraArgs(List.of("--verbose"));
    LaunchPlan plan = planner.plan(o, RIG_ID);
    Path state = dir.resolve("s").toAbsolutePath();
    assertThat(plan.command())
        .containsExactly(
            "relay",
            "--rig-id",
            RIG_ID,
            "--port",
            "47200",
            "--data",
            state.resolve("data").toString(),
            "--audit",
            "on",
            "--limit",
            "1000",
            "--reset",
            "--verbose");
    // The rig id in the environment is what down checks before any signal.
    assertThat(plan.environment())
        .containsExactlyInAnyOrderEntriesOf(Map.of("MODE", "fast", "CEILING_RIG_ID", RIG_ID));
    assertThat(plan.healthUrl()).isEqualTo("http://127.0.0.1:47200/health");
    assertThat(plan.metricsUrl()).isEqualTo("http://127.0.0.1:47101/metrics");
    assertThat(plan.targets().get(0).url()).isEqualTo("ws://127.0.0.1:47200/");
    assertThat(plan.limiter()).containsExactlyEntriesOf(Map.of("limit", "1000"));
    assertThat(plan.ports()).containsEntry("port", 47200).containsEntry("admin", 47101);
    assertThat(plan.log()).isEqualTo(state.resolve("relay.log"));
    assertThat(plan.probe())
        .isEqualTo(new Probe.HttpHealth(java.net.URI.create("http://127.0.0.1:47200/health")));
    assertThat(plan.placeholders()).containsEntry("rig_id", RIG_ID).containsEntry("mode", "fast");
  }

  /** Partner: the control arm selects by environment and adds no reset args without reset. */
  @Test
  void theControlArmWithoutResetAddsItsEnvironmentOnly() throws RigException {
    LaunchPlan plan = planner.plan(UpOptions.of(profile(PROFILE), "off", dir.resolve("s")), RIG_ID);
    assertThat(plan.command()).doesNotContain("--audit", "--reset");
    assertThat(plan.environment()).containsEntry("AUDIT", "off");
  }

  @Test
  void everyRemoteUrlIsNamedAtOnce() throws RigException {
    RelayProfile p =
        profile(
            PROFILE
                .replace("http://127.0.0.1:${port}/health", "http://192.0.2.1:${port}/health")
                .replace("ws://127.0.0.1:${port}/", "ws://192.0.2.2:${port}/"));
    assertThatThrownBy(() -> planner.plan(UpOptions.of(p, "on", dir.resolve("s")), RIG_ID))
        .isInstanceOfSatisfying(
            RigException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RigException.Kind.BAD_INPUT);
              assertThat(e.problems())
                  .containsExactly(
                      "health_url must point at loopback ("
                          + dev.ceiling.core.net.Loopback.ACCEPTED
                          + "), got http://192.0.2.1:47100/health",
                      "targets url must point at loopback ("
                          + dev.ceiling.core.net.Loopback.ACCEPTED
                          + "), got ws://192.0.2.2:47100/");
            });
  }

  @Test
  void localhostAndNamesUnderDotLocalhostArePlannedAsLoopback() throws RigException {
    // The partner of the refusal above: loopback by definition, planned without any lookup.
    RelayProfile p =
        profile(
            PROFILE
                .replace("http://127.0.0.1:${port}/health", "http://localhost:${port}/health")
                .replace("http://127.0.0.1:${admin}/metrics", "http://LOCALHOST.:${admin}/metrics")
                .replace("ws://127.0.0.1:${port}/", "ws://a.localhost:${port}/"));
    LaunchPlan plan = planner.plan(UpOptions.of(p, "on", dir.resolve("s")), RIG_ID);
    assertThat(plan.healthUrl()).isEqualTo("http://localhost:47100/health");
    assertThat(plan.metricsUrl()).isEqualTo("http://LOCALHOST.:47101/metrics");
    assertThat(plan.targets().get(0).url()).isEqualTo("ws://a.localhost:47100/");
  }

  @Test
  void aNameThatOnlyContainsLocalhostIsRefused() {
    RelayProfile p;
    try {
      p =
          profile(
              PROFILE.replace(
                  "http://127.0.0.1:${port}/health", "http://localhost.evil.com:${port}/health"));
    } catch (RigException e) {
      throw new AssertionError(e);
    }
    assertThatThrownBy(() -> planner.plan(UpOptions.of(p, "on", dir.resolve("s")), RIG_ID))
        .isInstanceOfSatisfying(
            RigException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly(
                        "health_url must point at loopback ("
                            + dev.ceiling.core.net.Loopback.ACCEPTED
                            + "), got http://localhost.evil.com:47100/health"));
  }

  @Test
  void aCommandWithoutTheRigIdIsRefusedWhenLaunching() throws RigException {
    RelayProfile p = profile(PROFILE.replace("\"--rig-id\", \"${rig_id}\", ", ""));
    assertThatThrownBy(() -> planner.plan(UpOptions.of(p, "on", dir.resolve("s")), RIG_ID))
        .hasMessageContaining("the command must carry ${rig_id}");
  }

  /** Partner: attaching launches nothing, so the same profile plans fine with skip_relay. */
  @Test
  void aCommandWithoutTheRigIdIsFineWhenAttaching() throws RigException {
    RelayProfile p = profile(PROFILE.replace("\"--rig-id\", \"${rig_id}\", ", ""));
    LaunchPlan plan =
        planner.plan(UpOptions.of(p, "on", dir.resolve("s")).withSkipRelay(true), RIG_ID);
    assertThat(plan.command()).doesNotContain(RIG_ID);
  }

  @Test
  void readinessPicksTheProbesAddress() throws RigException {
    String ws =
        PROFILE.replace("\"name\": \"plan\",", "\"name\": \"plan\", \"readiness\": \"websocket\",");
    assertThat(planner.plan(UpOptions.of(profile(ws), "on", dir.resolve("s")), RIG_ID).probe())
        .isEqualTo(new Probe.WebSocketHandshake(java.net.URI.create("ws://127.0.0.1:47100/")));
    String tcp =
        PROFILE.replace("\"name\": \"plan\",", "\"name\": \"plan\", \"readiness\": \"tcp:admin\",");
    assertThat(planner.plan(UpOptions.of(profile(tcp), "on", dir.resolve("s")), RIG_ID).probe())
        .isEqualTo(Probe.TcpAccept.loopback(47101));
  }

  @Test
  void theReferenceRelaysJarIsLocatedOnlyWhenNamed() throws RigException {
    RelayProfile p =
        profile(
            PROFILE.replace("\"relay\",", "\"${java}\", \"-jar\", \"${reference_relay_jar}\","));
    LaunchPlan plan =
        new LaunchPlanner(() -> Path.of("/opt/relay.jar"))
            .plan(UpOptions.of(p, "on", dir.resolve("s")), RIG_ID);
    assertThat(plan.command().subList(0, 3))
        .containsExactly(dev.ceiling.core.os.JavaExecutable.path(), "-jar", "/opt/relay.jar");
  }

  @Test
  void theRelayStartsInTheProfilesWorkingDirectoryExpanded() throws Exception {
    Path wd = java.nio.file.Files.createDirectories(dir.resolve("relay-home"));
    String json =
        PROFILE
            .replace(
                "\"name\": \"plan\",", "\"name\": \"plan\", \"working_directory\": \"${home}\",")
            .replace("\"mode\": \"fast\",", "\"mode\": \"fast\", \"home\": \"" + wd + "\",");
    LaunchPlan plan = planner.plan(UpOptions.of(profile(json), "on", dir.resolve("s")), RIG_ID);
    assertThat(plan.workingDirectory()).isEqualTo(wd.toAbsolutePath());
    // The command line is the relay's own, with no shell wrapper around it.
    assertThat(plan.command().get(0)).isEqualTo("relay");
  }

  /** Partner: without the field the relay starts in its state directory, as before. */
  @Test
  void withoutAWorkingDirectoryTheRelayStartsInItsStateDirectory() throws RigException {
    LaunchPlan plan = planner.plan(UpOptions.of(profile(PROFILE), "on", dir.resolve("s")), RIG_ID);
    assertThat(plan.workingDirectory()).isEqualTo(dir.resolve("s").toAbsolutePath());
  }

  /** Partner: a working directory that does not exist is refused before anything starts. */
  @Test
  void aMissingWorkingDirectoryIsRefusedNamingTheFieldAndThePath() throws RigException {
    Path missing = dir.resolve("nowhere");
    RelayProfile p =
        profile(
            PROFILE.replace(
                "\"name\": \"plan\",",
                "\"name\": \"plan\", \"working_directory\": \"" + missing + "\","));
    assertThatThrownBy(() -> planner.plan(UpOptions.of(p, "on", dir.resolve("s")), RIG_ID))
        .isInstanceOfSatisfying(
            RigException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RigException.Kind.BAD_INPUT);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "plan.json: $.working_directory: "
                          + missing
                          + " is not a directory (expanded from \""
                          + missing
                          + "\")");
            });
  }

  @Test
  void aBlankOrUnknownPlaceholderInTheWorkingDirectoryIsNamedWithTheOtherProblems() {
    String json =
        PROFILE
            .replace(
                "\"name\": \"plan\",", "\"name\": \"plan\", \"working_directory\": \"${nope}\",")
            .replace("\"ports\": {", "\"ports\": {\"bad\": 0, ");
    assertThatThrownBy(() -> profile(json))
        .isInstanceOfSatisfying(
            RigException.class,
            e ->
                assertThat(e.problems())
                    .anyMatch(l -> l.startsWith("$.working_directory: ") && l.contains("nope"))
                    .anyMatch(l -> l.startsWith("$.ports.bad: ")));
  }
}
