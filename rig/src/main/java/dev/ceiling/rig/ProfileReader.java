package dev.ceiling.rig;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.rig.RelayProfile.DelayControlTemplate;
import dev.ceiling.rig.RelayProfile.LimiterSetting;
import dev.ceiling.rig.RelayProfile.Selection;
import dev.ceiling.rig.RelayProfile.TargetTemplate;
import dev.ceiling.rig.RelayProfile.UpstreamTemplate;
import dev.ceiling.rig.internal.JsonFields;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a relay profile from a JSON tree, collecting every problem (unknown field, missing or
 * mistyped field, unknown placeholder, unknown metric role, arm not defined) before failing, each
 * naming the JSON path. Walking the tree by hand rather than binding with Jackson is what lets it
 * report all problems at once.
 */
public final class ProfileReader {
  /** Placeholders the rig always defines at {@code up}. */
  public static final Set<String> BUILT_IN_PLACEHOLDERS =
      Set.of(
          "rig_id",
          "profile_dir",
          "data_dir",
          "state_dir",
          "java",
          "reference_relay_jar",
          "queue_capacity");

  private static final Set<String> FIELDS =
      Set.of(
          "name",
          "description",
          "command",
          "environment",
          "ports",
          "parameters",
          "secret_parameters",
          "health_url",
          "metrics_url",
          "contamination_evidence",
          "readiness",
          "ready_line_prefix",
          "treatment_arm",
          "control_arm",
          "arms",
          "reset",
          "limiter",
          "metric_mapping",
          "positive_controlled",
          "targets",
          "upstreams",
          "delay_controls",
          "queue_capacity",
          "source_dir",
          "binary_path",
          "working_directory",
          "admission_limits",
          "control_check");

  private final JsonFields f = new JsonFields();
  private final List<String> problems = f.problems();
  private final Set<String> known = new TreeSet<>(BUILT_IN_PLACEHOLDERS);
  private final ProfileSections sections = new ProfileSections(f, known);

  private ProfileReader() {}

  /**
   * Parses and validates a profile.
   *
   * @param text the JSON
   * @param source names the file (or built-in) in every message
   * @param baseDir where relative paths resolve, or null for the working directory
   * @throws RigException listing every problem
   */
  public static RelayProfile read(String text, String source, Path baseDir) throws RigException {
    ObjectMapper mapper = Json.mapper();
    JsonNode root;
    try (JsonParser p = mapper.createParser(text)) {
      root = mapper.readTree(p);
      if (p.nextToken() != null) {
        throw RigException.invalidProfile(source, List.of("$: trailing content after the object"));
      }
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw RigException.invalidProfile(
          source, List.of("$: not valid JSON" + where + ": " + e.getOriginalMessage()));
    } catch (java.io.IOException e) {
      throw RigException.invalidProfile(source, List.of("$: cannot parse: " + e));
    }
    if (root == null || !root.isObject()) {
      throw RigException.invalidProfile(source, List.of("$: expected a JSON object"));
    }
    ProfileReader r = new ProfileReader();
    RelayProfile profile = r.profile(root, source, baseDir);
    if (!r.problems.isEmpty()) {
      throw RigException.invalidProfile(source, r.problems);
    }
    return profile;
  }

  private RelayProfile profile(JsonNode root, String source, Path baseDir) {
    f.unknownFields(root, "$", FIELDS);
    String name = f.string(root, "$", "name", true);
    String description = f.string(root, "$", "description", false);
    Map<String, Integer> ports = ports(root.get("ports"), "$.ports");
    Map<String, String> parameters = f.stringMap(root, "$", "parameters", false);
    List<String> secret = secretParameters(root, ports, parameters);
    // Before the command is read: each upstream defines the placeholders it may use.
    List<UpstreamTemplate> upstreams =
        sections.upstreams(root.get("upstreams"), linkable(ports, parameters));
    List<String> command = command(root);
    Map<String, String> env = f.stringMap(root, "$", "environment", false);
    f.placeholders(env, "$.environment", known);
    Readiness readiness = readiness(root, ports);
    // A health URL is needed only to ask it: a relay without one is ready when its WebSocket
    // handshake (or a TCP connect) succeeds.
    String health = f.string(root, "$", "health_url", readiness instanceof Readiness.HttpHealth);
    f.placeholders(health, "$.health_url", known);
    EvidenceSection ev = evidenceSection(root);
    List<DelayControlTemplate> delayControls =
        sections.delayControls(root.get("delay_controls"), upstreams, ev.metricsUrl() != null);
    String readyLinePrefix = f.string(root, "$", "ready_line_prefix", false);
    Arms arms = arms(root);
    List<LimiterSetting> limiter = sections.limiter(root.get("limiter"));
    List<TargetTemplate> targets = sections.targets(root.get("targets"));
    Integer queueCapacity = queueCapacity(root.get("queue_capacity"));
    String sourceDir = f.string(root, "$", "source_dir", false);
    String binaryPath = f.string(root, "$", "binary_path", false);
    f.placeholders(binaryPath, "$.binary_path", known);
    String workingDirectory = f.string(root, "$", "working_directory", false);
    f.placeholders(workingDirectory, "$.working_directory", known);
    if (workingDirectory != null && workingDirectory.isBlank()) {
      problems.add("$.working_directory: must name a directory, or be left out, got \"\"");
    }
    List<AdmissionLimit> admissionLimits = sections.admissionLimits(root.get("admission_limits"));
    List<String> controlCheck = sections.controlCheck(root, secret);
    if (!problems.isEmpty()) {
      return null;
    }
    return new RelayProfile(
        name,
        description,
        command,
        env,
        ports,
        parameters,
        new TreeSet<>(secret),
        health,
        ev.metricsUrl(),
        ev.evidence(),
        readiness,
        readyLinePrefix,
        arms.treatment(),
        arms.control(),
        arms.selections(),
        arms.reset(),
        limiter,
        ev.mapping(),
        ev.positiveControlled(),
        targets,
        upstreams,
        delayControls,
        queueCapacity,
        sourceDir,
        binaryPath,
        workingDirectory,
        admissionLimits,
        controlCheck,
        source,
        baseDir);
  }

  /** How contamination is read: the evidence kind, and with metrics their URL and mapping. */
  private record EvidenceSection(
      Evidence evidence,
      String metricsUrl,
      Map<String, String> mapping,
      List<String> positiveControlled) {}

  private EvidenceSection evidenceSection(JsonNode root) {
    Evidence evidence = evidence(root);
    boolean byMetrics = evidence == Evidence.METRICS;
    String metrics = f.string(root, "$", "metrics_url", byMetrics);
    f.placeholders(metrics, "$.metrics_url", known);
    Map<String, String> mapping = metricMapping(root, byMetrics);
    return new EvidenceSection(evidence, metrics, mapping, positiveControlled(root, mapping));
  }

  /** An upstream's target may use the ports and parameters, which are known before any launch. */
  private static Set<String> linkable(Map<String, Integer> ports, Map<String, String> parameters) {
    Set<String> out = new TreeSet<>(ports.keySet());
    out.addAll(parameters.keySet());
    return out;
  }

  private List<String> command(JsonNode root) {
    List<String> command = f.stringList(root, "$", "command", true);
    if (root.has("command") && command.isEmpty()) {
      problems.add("$.command: must name at least the program to run, got []");
    }
    f.placeholders(command, "$.command", known);
    return command;
  }

  /** Defines the port and parameter placeholders; secret names must be parameters. */
  private List<String> secretParameters(
      JsonNode root, Map<String, Integer> ports, Map<String, String> parameters) {
    for (String n : ports.keySet()) {
      definePlaceholder(n, "$.ports." + n);
    }
    for (String n : parameters.keySet()) {
      definePlaceholder(n, "$.parameters." + n);
    }
    List<String> secret = f.stringList(root, "$", "secret_parameters", false);
    for (int i = 0; i < secret.size(); i++) {
      if (!parameters.containsKey(secret.get(i))) {
        problems.add(
            "$.secret_parameters["
                + i
                + "]: '"
                + secret.get(i)
                + "' is not a parameter; parameters: "
                + parameters.keySet());
      }
    }
    return secret;
  }

  private Readiness readiness(JsonNode root, Map<String, Integer> ports) {
    String text = f.string(root, "$", "readiness", false);
    if (text == null) {
      return new Readiness.HttpHealth();
    }
    try {
      return Readiness.parse(text, ports.keySet());
    } catch (IllegalArgumentException e) {
      problems.add("$.readiness: " + e.getMessage());
      return new Readiness.HttpHealth();
    }
  }

  /** The evidence kind; a profile without metrics may not name metric fields. */
  private Evidence evidence(JsonNode root) {
    String text = f.string(root, "$", "contamination_evidence", false);
    if (text == null) {
      return Evidence.METRICS;
    }
    Optional<Evidence> evidence = Evidence.fromKey(text);
    if (evidence.isEmpty()) {
      problems.add(
          "$.contamination_evidence: must be \"metrics\" (the relay's Prometheus counters) or"
              + " \"client\" (no metrics: what the generator sees), got \""
              + text
              + "\"");
      return Evidence.METRICS;
    }
    if (evidence.get() == Evidence.CLIENT) {
      for (String field : List.of("metrics_url", "metric_mapping", "positive_controlled")) {
        JsonNode v = root.get(field);
        if (v != null && !v.isNull()) {
          problems.add(
              "$."
                  + field
                  + ": a profile with \"contamination_evidence\": \"client\" has no metrics;"
                  + " remove it, or declare \"metrics\" to have the counters read");
        }
      }
    }
    return evidence.get();
  }

  /** The arms section: both arm names, each arm's selection, the reset selection. */
  private record Arms(
      String treatment, String control, Map<String, Selection> selections, Selection reset) {}

  private Arms arms(JsonNode root) {
    String treatment = f.string(root, "$", "treatment_arm", true);
    String control = f.string(root, "$", "control_arm", true);
    Map<String, Selection> arms = new LinkedHashMap<>();
    JsonNode armsNode = root.get("arms");
    if (armsNode == null || armsNode.isNull()) {
      problems.add("$.arms: missing; every arm needs a selection (args and/or env)");
    } else if (!armsNode.isObject()) {
      problems.add("$.arms: expected an object of arm name -> {args, env}");
    } else {
      for (Map.Entry<String, JsonNode> e : armsNode.properties()) {
        arms.put(e.getKey(), sections.selection(e.getValue(), "$.arms." + e.getKey(), known));
      }
    }
    if (treatment != null && treatment.equals(control)) {
      problems.add("$.control_arm: must differ from treatment_arm, got both \"" + treatment + "\"");
    }
    for (String[] arm : new String[][] {{"treatment_arm", treatment}, {"control_arm", control}}) {
      if (arm[1] != null && armsNode != null && armsNode.isObject() && !arms.containsKey(arm[1])) {
        problems.add(
            "$." + arm[0] + ": arm \"" + arm[1] + "\" has no selection in $.arms " + arms.keySet());
      }
    }
    JsonNode resetNode = root.get("reset");
    Selection reset =
        resetNode == null || resetNode.isNull()
            ? Selection.none()
            : sections.selection(resetNode, "$.reset", known);
    return new Arms(treatment, control, arms, reset);
  }

  private Map<String, String> metricMapping(JsonNode root, boolean byMetrics) {
    Map<String, String> mapping = f.stringMap(root, "$", "metric_mapping", byMetrics);
    for (Map.Entry<String, String> e : mapping.entrySet()) {
      if (MetricRole.fromKey(e.getKey()).isEmpty()) {
        problems.add(
            "$.metric_mapping."
                + e.getKey()
                + ": unknown metric role; expected one of "
                + roleKeys());
      }
      if (e.getValue().isBlank()) {
        problems.add("$.metric_mapping." + e.getKey() + ": selector must be non-blank");
      }
    }
    return mapping;
  }

  private List<String> positiveControlled(JsonNode root, Map<String, String> mapping) {
    List<String> positive = f.stringList(root, "$", "positive_controlled", false);
    for (int i = 0; i < positive.size(); i++) {
      if (!mapping.containsKey(positive.get(i))) {
        problems.add(
            "$.positive_controlled["
                + i
                + "]: role \""
                + positive.get(i)
                + "\" is not in $.metric_mapping "
                + mapping.keySet());
      }
    }
    return positive;
  }

  private Integer queueCapacity(JsonNode q) {
    if (q == null || q.isNull()) {
      return null;
    }
    if (!q.canConvertToInt() || !q.isIntegralNumber() || q.asInt() < 1) {
      problems.add("$.queue_capacity: expected an integer >= 1 or null, got " + q);
      return null;
    }
    return q.asInt();
  }

  private static List<String> roleKeys() {
    List<String> out = new ArrayList<>();
    for (MetricRole r : MetricRole.values()) {
      out.add(r.key());
    }
    return out;
  }

  private void definePlaceholder(String name, String path) {
    if (!name.matches("[A-Za-z0-9_.-]+")) {
      problems.add(path + ": name must match [A-Za-z0-9_.-]+ to be usable as ${" + name + "}");
    } else if (!known.add(name) || "value".equals(name)) {
      problems.add(path + ": name \"" + name + "\" is already taken by another placeholder");
    }
  }

  private Map<String, Integer> ports(JsonNode node, String path) {
    Map<String, Integer> out = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      problems.add(path + ": missing; name each port the relay listens on, e.g. {\"port\": 47100}");
      return out;
    }
    if (!node.isObject()) {
      problems.add(path + ": expected an object of name -> port number");
      return out;
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      JsonNode v = e.getValue();
      if (!v.isIntegralNumber() || v.asLong() < 1 || v.asLong() > 65535) {
        problems.add(path + "." + e.getKey() + ": expected a port in [1, 65535], got " + v);
      } else {
        out.put(e.getKey(), v.asInt());
      }
    }
    return out;
  }
}
