package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.MetricRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayProfileTest {
  @TempDir Path dir;

  private static final String MINIMAL =
      """
      {
        "name": "mini",
        "command": ["relay", "--rig-id", "${rig_id}", "--port", "${port}"],
        "ports": {"port": 47100},
        "health_url": "http://127.0.0.1:${port}/health",
        "metrics_url": "http://127.0.0.1:${port}/metrics",
        "treatment_arm": "on",
        "control_arm": "off",
        "arms": {"on": {"env": {"AUDIT": "true"}}, "off": {"env": {"AUDIT": "false"}}},
        "metric_mapping": {"audit_log_count": "x_count"},
        "targets": [{"community": "a", "url": "ws://127.0.0.1:${port}/"}]
      }
      """;

  @Test
  void builtInReferenceProfileDescribesItselfInOneLine() throws RigException {
    RelayProfile p = RelayProfile.builtIn("reference");
    assertThat(p.summary())
        .isEqualTo(
            "profile reference (built-in:reference): arms on/off, ports {db_port=47101,"
                + " port=47100}, 2 target(s), queue capacity 100");
    // Every role the verdict reads is mapped, and the limiter is raised far past any offered rate.
    for (MetricRole r : MetricRole.values()) {
      assertThat(p.metricMapping()).containsKey(r.key());
    }
    assertThat(p.limiter())
        .anySatisfy(
            l -> {
              assertThat(l.name()).isEqualTo("limiter_events_per_sec");
              assertThat(Integer.parseInt(l.value())).isGreaterThanOrEqualTo(1_000_000);
            });
    assertThat(p.ports().values()).allSatisfy(port -> assertThat(port).isBetween(47000, 47999));
  }

  /**
   * The linked profile is the reference one with its H2 link declared as the upstream 'db' and the
   * relay pointed at it; the reference profile itself has no upstream, so the main job never goes
   * through a proxy.
   */
  @Test
  void theLinkedReferenceProfileRoutesTheAuditLinkThroughItsUpstream() throws RigException {
    RelayProfile linked = RelayProfile.builtIn("reference-linked");
    assertThat(linked.upstreams())
        .extracting(RelayProfile.UpstreamTemplate::name, RelayProfile.UpstreamTemplate::target)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("db", "127.0.0.1:${db_port}"));
    assertThat(String.join(" ", linked.command()))
        .contains("--db-port ${db_port} --db-connect ${upstream.db.address}");
    RelayProfile reference = RelayProfile.builtIn("reference");
    assertThat(reference.upstreams()).isEmpty();
    assertThat(reference.command()).doesNotContain("--db-connect");
    assertThat(linked.metricMapping()).isEqualTo(reference.metricMapping());
  }

  /**
   * The PostgreSQL-linked profile points the audit path at the proxy and leaves the JDBC URL, which
   * the metrics' row count reads, at the server itself; its upstream is the server's address.
   */
  @Test
  void thePostgresLinkedProfileRoutesOnlyTheAuditPathThroughItsUpstream() throws RigException {
    RelayProfile pg = RelayProfile.builtIn("reference-postgres-linked");
    assertThat(pg.upstreams())
        .extracting(RelayProfile.UpstreamTemplate::name, RelayProfile.UpstreamTemplate::target)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("db", "${pg_host}:${pg_port}"));
    assertThat(String.join(" ", pg.command()))
        .contains(
            "--jdbc-url jdbc:postgresql://${pg_host}:${pg_port}/${pg_database}?user=${pg_user}"
                + " --db-connect ${upstream.db.address}")
        .contains("--synchronous-commit ${synchronous_commit}");
    assertThat(pg.parameters()).containsEntry("synchronous_commit", "on");
    assertThat(pg.metricMapping()).isEqualTo(RelayProfile.builtIn("reference").metricMapping());
  }

  @Test
  void theDocumentedBuzzProfileIsValid() throws RigException {
    RelayProfile p = RelayProfile.load(Path.of("../docs/profiles/buzz.json"));
    assertThat(p.arms().get("on").env()).containsEntry("BUZZ_AUDIT_ENABLED", "true");
    assertThat(p.arms().get("off").env()).containsEntry("BUZZ_AUDIT_ENABLED", "false");
    assertThat(p.metricMapping())
        .containsEntry(
            "admission_rejections_quota", "buzz_admission_rejections_total{reason=\"quota\"}");
    assertThat(p.limiter())
        .extracting(RelayProfile.LimiterSetting::name)
        .contains("human_ws_events_per_sec", "ws_admission_budget");
  }

  @Test
  void aMinimalProfileReadsWithDefaults() throws RigException {
    RelayProfile p = ProfileReader.read(MINIMAL, "mini.json", null);
    assertThat(p.readiness().serialized()).isEqualTo("health");
    assertThat(p.reset().args()).isEmpty();
    assertThat(p.queueCapacity()).isNull();
    assertThat(p.arms().get("on").env()).isEqualTo(Map.of("AUDIT", "true"));
  }

  /** The same relay without metrics: client-side evidence, readiness by WebSocket handshake. */
  private static final String NO_METRICS =
      MINIMAL
          .replace("\"health_url\": \"http://127.0.0.1:${port}/health\",\n", "")
          .replace("\"metrics_url\": \"http://127.0.0.1:${port}/metrics\",\n", "")
          .replace(
              "\"metric_mapping\": {\"audit_log_count\": \"x_count\"},\n",
              "\"contamination_evidence\": \"client\", \"readiness\": \"websocket\",\n");

  @Test
  void aProfileWithoutMetricsDeclaresClientSideEvidence() throws RigException {
    assertThat(NO_METRICS).doesNotContain("metrics_url", "health_url", "metric_mapping");
    RelayProfile p = ProfileReader.read(NO_METRICS, "nometrics.json", null);
    assertThat(p.contaminationEvidence()).isEqualTo(Evidence.CLIENT);
    assertThat(p.metricsUrl()).isNull();
    assertThat(p.healthUrl()).isNull();
    assertThat(p.metricMapping()).isEmpty();
    assertThat(p.readiness().serialized()).isEqualTo("websocket");
  }

  @Test
  void withoutTheEvidenceDeclaredMissingMetricsAreRefused() {
    RigException e = invalid(NO_METRICS.replace("\"contamination_evidence\": \"client\", ", ""));
    assertThat(e.problems())
        .containsExactlyInAnyOrder(
            "$.metrics_url: missing required field", "$.metric_mapping: missing required field");
  }

  @Test
  void clientSideEvidenceRefusesMetricsItWouldIgnore() {
    RigException e =
        invalid(
            NO_METRICS.replace(
                "\"contamination_evidence\": \"client\",",
                "\"contamination_evidence\": \"client\", \"metrics_url\": \"http://127.0.0.1:1/m\","));
    assertThat(e.problems())
        .singleElement()
        .asString()
        .startsWith("$.metrics_url: a profile with \"contamination_evidence\": \"client\" has no");
  }

  @Test
  void anUnknownEvidenceOrReadinessIsNamed() {
    RigException e =
        invalid(NO_METRICS.replace("\"client\"", "\"guess\"").replace("\"websocket\"", "\"ping\""));
    assertThat(e.problems())
        .anySatisfy(p -> assertThat(p).startsWith("$.contamination_evidence: must be"))
        .anySatisfy(p -> assertThat(p).startsWith("$.readiness: must be"));
  }

  @Test
  void healthReadinessStillNeedsTheHealthUrl() {
    RigException e = invalid(NO_METRICS.replace("\"readiness\": \"websocket\",", ""));
    assertThat(e.problems()).containsExactly("$.health_url: missing required field");
  }

  @Test
  void theNostrRelayJsProfileIsValidAndHasNoMetrics() throws RigException {
    RelayProfile p = RelayProfile.load(Path.of("../docs/profiles/nostr-relay-js/profile.json"));
    assertThat(p.contaminationEvidence()).isEqualTo(Evidence.CLIENT);
    assertThat(p.metricsUrl()).isNull();
    assertThat(p.readiness().serialized()).isEqualTo("websocket");
    assertThat(p.command()).contains("${profile_dir}/relay.js");
    assertThat(p.arms().get("on").args()).containsExactly("--audit", "on");
    assertThat(p.arms().get("off").args()).containsExactly("--audit", "off");
    // The treatment's known slow write, from which NostrRelayJsIT places its grid.
    assertThat(p.parameters()).containsEntry("audit_delay_ms", "40");
    assertThat(p.command()).containsSequence("--audit-delay-ms", "${audit_delay_ms}");
    // Its control is verified positive by its audit table: counted before and after each cell.
    assertThat(p.controlCheck())
        .containsExactly("node", "${profile_dir}/count-rows.js", "${data_dir}", "audit");
  }

  /**
   * nostream's profile: two links (PostgreSQL and Redis), started in its own directory, the arms
   * switching only its settings directory, and the control verified by Redis's ZADD count.
   */
  @Test
  void theNostreamProfileIsValidWithTwoLinksAndSettingsPerArm() throws RigException {
    RelayProfile p = RelayProfile.load(Path.of("../docs/profiles/nostream/profile.json"));
    assertThat(p.contaminationEvidence()).isEqualTo(Evidence.CLIENT);
    assertThat(p.workingDirectory()).isEqualTo("${nostream_dir}");
    assertThat(p.linkNames()).containsExactly("db", "cache");
    assertThat(p.environment())
        .containsEntry("NODE_OPTIONS", "--require ${profile_dir}/listen-loopback.js")
        .containsEntry("DB_HOST", "${upstream.db.host}")
        .containsEntry("REDIS_URI", "redis://${upstream.cache.address}");
    assertThat(p.arms().get("rules").env())
        .containsExactly(java.util.Map.entry("NOSTR_CONFIG_DIR", "${profile_dir}/settings-on"));
    assertThat(p.arms().get("none").env())
        .containsExactly(java.util.Map.entry("NOSTR_CONFIG_DIR", "${profile_dir}/settings-off"));
    assertThat(p.isSecret("relay_secret")).isTrue();
    assertThat(p.controlCheck())
        .containsExactly("node", "${profile_dir}/rate-limit-hits.js", "127.0.0.1", "${redis_port}");
  }

  /** Partner: the same profile with a misspelt working_directory is refused, naming the field. */
  @Test
  void theNostreamProfileWithAMisspeltFieldIsRefused() throws Exception {
    String text =
        java.nio.file.Files.readString(Path.of("../docs/profiles/nostream/profile.json"))
            .replace("\"working_directory\"", "\"working_dir\"");
    assertThat(invalid(text).problems())
        .anyMatch(l -> l.startsWith("$.working_dir: unknown field; expected one of ["));
  }

  /**
   * A target's content is at least what makes every event unique: refused at load, naming the
   * field, rather than by the generator once a sweep has started. Omitted, it is the built-in
   * profiles' 64 bytes.
   */
  @Test
  void contentTooSmallForUniqueEventsIsRefusedAtLoadAndOmittedIsTheDefault() throws RigException {
    String withContent = "\"url\": \"ws://127.0.0.1:${port}/\", \"content_bytes\": %d";
    String url = "\"url\": \"ws://127.0.0.1:${port}/\"";
    assertThat(invalid(MINIMAL.replace(url, String.format(withContent, 16))).problems())
        .containsExactly(
            "$.targets[0].content_bytes: must be at least 32 so every event has its own id (a"
                + " nonce and the slot number), got 16");
    assertThat(
            ProfileReader.read(MINIMAL.replace(url, String.format(withContent, 32)), "m", null)
                .targets()
                .get(0)
                .contentBytes())
        .isEqualTo(32);
    assertThat(ProfileReader.read(MINIMAL, "mini.json", null).targets().get(0).contentBytes())
        .isEqualTo(64);
  }

  @Test
  void aControlCheckIsReadAndItsPlaceholdersChecked() throws RigException {
    String withCheck =
        MINIMAL.replace(
            "\"targets\"",
            "\"control_check\": [\"sqlite3\", \"${data_dir}/db\", \"SELECT 1\"], \"targets\"");
    assertThat(ProfileReader.read(withCheck, "c.json", null).controlCheck())
        .containsExactly("sqlite3", "${data_dir}/db", "SELECT 1");
    assertThat(ProfileReader.read(MINIMAL, "mini.json", null).controlCheck()).isNull();
    // Partners: an empty command, an unknown placeholder and a secret parameter are refused.
    assertThat(invalid(MINIMAL.replace("\"targets\"", "\"control_check\": [], \"targets\"")))
        .hasMessageContaining("$.control_check: must name at least the program to run, got []");
    assertThat(
            invalid(
                MINIMAL.replace(
                    "\"targets\"", "\"control_check\": [\"count\", \"${nope}\"], \"targets\"")))
        .hasMessageContaining("$.control_check");
    String secret =
        MINIMAL
            .replace("\"ports\"", "\"parameters\": {\"db_password\": \"x\"}, \"ports\"")
            .replace(
                "\"targets\"",
                "\"control_check\": [\"count\", \"--password=${db_password}\"], \"targets\"");
    assertThat(invalid(secret))
        .hasMessageContaining("$.control_check: uses the secret parameter 'db_password'");
  }

  private static RigException invalid(String json) {
    try {
      ProfileReader.read(json, "bad.json", null);
    } catch (RigException e) {
      return e;
    }
    throw new AssertionError("expected the profile to be refused: " + json);
  }

  @Test
  void anUnknownFieldIsNamedWithTheFile() {
    RigException e =
        invalid(MINIMAL.replace("\"name\": \"mini\",", "\"name\": \"mini\", \"colour\": 1,"));
    assertThat(e.kind()).isEqualTo(RigException.Kind.BAD_INPUT);
    assertThat(e.getMessage()).startsWith("invalid relay profile bad.json:");
    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0)).startsWith("$.colour: unknown field; expected one of [");
  }

  @Test
  void aMissingCommandIsNamed() {
    RigException e =
        invalid(
            MINIMAL.replace(
                "\"command\": [\"relay\", \"--rig-id\", \"${rig_id}\", \"--port\", \"${port}\"],",
                ""));
    assertThat(e.problems()).containsExactly("$.command: missing required field");
  }

  @Test
  void anUnreadableFileIsNamed() {
    Path missing = dir.resolve("nope.json");
    assertThatThrownBy(() -> RelayProfile.load(missing))
        .isInstanceOf(RigException.class)
        .hasMessageContaining("invalid relay profile " + missing)
        .hasMessageContaining("cannot read file");
  }

  @Test
  void brokenJsonNamesLineAndColumn() throws Exception {
    Path f = dir.resolve("broken.json");
    Files.writeString(f, "{\"name\": \"x\",\n  \"command\": [}");
    assertThatThrownBy(() -> RelayProfile.load(f))
        .isInstanceOf(RigException.class)
        .hasMessageContaining(f.toString())
        .hasMessageContaining("not valid JSON at line 2");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    String json =
        MINIMAL
            .replace("\"name\": \"mini\",", "\"name\": \"mini\", \"colour\": 1,")
            .replace("\"${port}\"]", "\"${prot}\"]")
            .replace("\"audit_log_count\"", "\"audit_log_cnt\"")
            .replace("\"control_arm\": \"off\"", "\"control_arm\": \"of\"")
            .replace("47100", "70000");
    RigException e = invalid(json);
    List<String> fields = new ArrayList<>();
    for (String p : e.problems()) {
      fields.add(p.substring(0, p.indexOf(':')));
    }
    assertThat(fields)
        .containsExactlyInAnyOrder(
            "$.colour",
            "$.ports.port",
            "$.command[4]",
            "$.health_url",
            "$.metrics_url",
            "$.control_arm",
            "$.metric_mapping.audit_log_cnt",
            "$.targets[0].url");
    assertThat(e.problems())
        .anySatisfy(
            p -> assertThat(p).startsWith("$.command[4]: unknown placeholder ${prot}; known: ["));
  }

  @Test
  void unknownOverridesAndArmsAreRefusedBeforeAnythingStarts() throws RigException {
    RelayProfile p = ProfileReader.read(MINIMAL, "mini.json", null);
    assertThatThrownBy(() -> UpOptions.of(p, "maybe", dir))
        .hasMessage("arm must be one of [off, on], got maybe");
    assertThatThrownBy(() -> UpOptions.of(p, "on", dir).withOverrides(Map.of("porty", "1")))
        .hasMessageStartingWith("overrides may only name the profile's ports [port]");
    assertThatThrownBy(() -> UpOptions.of(p, "on", dir).withOverrides(Map.of("port", "0")))
        .hasMessage("override port must be a port in [1, 65535], got 0");
    assertThatThrownBy(() -> UpOptions.of(p, "on", dir).withReset(true).withSkipRelay(true))
        .hasMessageStartingWith("reset must be false with skip_relay");
  }

  @Test
  void aRemoteHealthUrlIsRefused() throws Exception {
    RelayProfile p =
        ProfileReader.read(
            MINIMAL.replace("http://127.0.0.1:${port}/health", "http://192.0.2.1:${port}/health"),
            "remote.json",
            null);
    RigException e = LifecycleIT.catchRig(() -> Rig.up(UpOptions.of(p, "on", dir.resolve("s"))));
    assertThat(e.kind()).isEqualTo(RigException.Kind.BAD_INPUT);
    assertThat(e.getMessage())
        .isEqualTo(
            "remote.json: health_url must point at loopback (127.0.0.0/8 or ::1 written as an"
                + " address, or localhost and names under .localhost; other names are not"
                + " resolved), got http://192.0.2.1:47100/health");
  }

  @Test
  void aCommandWithoutTheRigIdIsRefused() throws Exception {
    RelayProfile p =
        ProfileReader.read(MINIMAL.replace("\"--rig-id\", \"${rig_id}\", ", ""), "anon.json", null);
    RigException e = LifecycleIT.catchRig(() -> Rig.up(UpOptions.of(p, "on", dir.resolve("s"))));
    assertThat(e.getMessage()).contains("the command must carry ${rig_id}");
  }
}
