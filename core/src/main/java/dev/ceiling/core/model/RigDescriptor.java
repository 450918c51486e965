package dev.ceiling.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the rig brought up and what it pins: where the relay is, which arm it runs, and the
 * identities of the relay and the generator. Written by {@code rig up}; read by the sweep. Never
 * holds secrets.
 *
 * @param schemaVersion must be {@link SchemaVersion#CURRENT}
 * @param rigId unique id of this rig instance (also on the relay's command line)
 * @param profile the profile's name
 * @param arm the arm the relay runs
 * @param relayPid the relay's pid when this rig started it; null when attached ({@code
 *     --skip-relay}), so nothing later offers to kill it
 * @param relayStartInstant the relay process's start instant, or null when attached
 * @param relayCommand the relay's exact command line, or null when attached
 * @param relayLog path of the relay's log file, or null when attached
 * @param healthUrl the relay's health URL, or null when readiness is a WebSocket handshake or a TCP
 *     connect
 * @param metricsUrl the relay's Prometheus metrics URL, or null when the relay exposes none
 * @param contaminationEvidence {@link #EVIDENCE_METRICS} (the relay's counters show admission and
 *     audit contamination) or {@link #EVIDENCE_CLIENT} (no metrics: only what the generator sees)
 * @param targets the communities to publish into
 * @param limiterSettings the admission-limiter settings applied (name to value)
 * @param queueCapacity the audit queue's capacity, or null when the relay has none
 * @param databaseReset true when the relay was given a fresh database
 * @param metricMapping role key ({@link MetricRole#key()}) to series selector, e.g. {@code
 *     refrelay_admission_rejections_total{reason="quota"}}
 * @param positiveControlled role keys whose absence reads as zero (declared to appear when they
 *     move)
 * @param relayInfo facts the relay reported about itself (e.g. calibration), name to value
 * @param relaySourceRevision the relay's source revision, or null
 * @param relaySourceDiffDigest SHA-256 of the relay's uncommitted diff, or null
 * @param relayBinaryDigest SHA-256 of the relay's binary or jar, or null
 * @param generatorVersion Ceiling's version
 * @param generatorJarDigest SHA-256 of Ceiling's jar or classes, or null if unreadable
 * @param controlCheck the profile's {@code control_check} command, expanded: run before and after
 *     each cell of the control arm, its output must not change; null when the profile has none
 */
@SchemaVersion1.Upgradable
public record RigDescriptor(
    int schemaVersion,
    String rigId,
    String profile,
    String arm,
    Long relayPid,
    Instant relayStartInstant,
    List<String> relayCommand,
    String relayLog,
    String healthUrl,
    String metricsUrl,
    String contaminationEvidence,
    List<Target> targets,
    Map<String, String> limiterSettings,
    Integer queueCapacity,
    boolean databaseReset,
    Map<String, String> metricMapping,
    List<String> positiveControlled,
    Map<String, String> relayInfo,
    String relaySourceRevision,
    String relaySourceDiffDigest,
    String relayBinaryDigest,
    String generatorVersion,
    String generatorJarDigest,
    List<String> controlCheck) {

  public RigDescriptor {
    Checks checks = new Checks();
    SchemaVersion.check(schemaVersion);
    checks.notBlank("rig_id", rigId);
    checks.notBlank("profile", profile);
    checks.notBlank("arm", arm);
    if ((relayPid == null) != (relayStartInstant == null)
        || (relayPid == null) != (relayCommand == null)) {
      checks.add(
          "relay_pid, relay_start_instant and relay_command must be all set or all null, got "
              + relayPid
              + ", "
              + relayStartInstant
              + ", "
              + relayCommand);
    }
    if (relayCommand != null) {
      relayCommand = List.copyOf(relayCommand);
    }
    if (controlCheck != null) {
      controlCheck = List.copyOf(controlCheck);
      if (controlCheck.isEmpty()) {
        checks.add("control_check must name at least the program to run or be null, got []");
      }
    }
    targets = List.copyOf(Objects.requireNonNull(targets, "targets must not be null"));
    if (targets.isEmpty()) {
      checks.add("targets must not be empty, got []");
    }
    limiterSettings = sorted("limiter_settings", limiterSettings);
    if (queueCapacity != null && queueCapacity < 1) {
      checks.add("queue_capacity must be >= 1 or null, got " + queueCapacity);
    }
    metricMapping = sorted("metric_mapping", metricMapping);
    if (!EVIDENCE_METRICS.equals(contaminationEvidence)
        && !EVIDENCE_CLIENT.equals(contaminationEvidence)) {
      checks.add(
          "contamination_evidence must be 'metrics' or 'client', got " + contaminationEvidence);
    }
    if (healthUrl != null) {
      checks.notBlank("health_url", healthUrl);
    }
    if (EVIDENCE_METRICS.equals(contaminationEvidence)) {
      checks.notBlank("metrics_url", metricsUrl);
    } else if (metricsUrl != null || !metricMapping.isEmpty()) {
      checks.add(
          "client-side contamination evidence takes no metrics_url and no metric_mapping, got "
              + metricsUrl
              + " and "
              + metricMapping);
    }
    positiveControlled =
        List.copyOf(Objects.requireNonNull(positiveControlled, "positive_controlled"));
    relayInfo = sorted("relay_info", relayInfo);
    checks.notBlank("generator_version", generatorVersion);
    checks.orThrow();
  }

  /** The relay's Prometheus counters are the contamination evidence. */
  public static final String EVIDENCE_METRICS = "metrics";

  /**
   * The relay has no metrics: what the generator sees (NOTICE frames, OK false, transport errors,
   * unknown-id OKs) is the contamination evidence.
   */
  public static final String EVIDENCE_CLIENT = "client";

  /** True when the contamination evidence is the generator's alone. */
  public boolean clientSideEvidence() {
    return EVIDENCE_CLIENT.equals(contaminationEvidence);
  }

  /** True when this rig started the relay and may stop it. */
  public boolean ownsRelay() {
    return relayPid != null;
  }

  private static Map<String, String> sorted(String field, Map<String, String> m) {
    return java.util.Collections.unmodifiableMap(
        new TreeMap<>(Objects.requireNonNull(m, field + " must not be null (use {})")));
  }
}
