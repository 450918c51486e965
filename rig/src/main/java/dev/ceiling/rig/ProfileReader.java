package dev.ceiling.rig.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RelayProfile.LimiterSetting;
import dev.ceiling.rig.RelayProfile.Selection;
import dev.ceiling.rig.RelayProfile.TargetTemplate;
import dev.ceiling.rig.RigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
          "queue_capacity",
          "source_dir",
          "binary_path");

  private final List<String> problems = new ArrayList<>();
  private final Set<String> known = new TreeSet<>(BUILT_IN_PLACEHOLDERS);

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
    unknownFields(root, "$", FIELDS);
    String name = string(root, "$", "name", true);
    String description = string(root, "$", "description", false);
    Map<String, Integer> ports = ports(root.get("ports"), "$.ports");
    Map<String, String> parameters = stringMap(root, "$", "parameters", false);
    for (String n : ports.keySet()) {
      definePlaceholder(n, "$.ports." + n);
    }
    for (String n : parameters.keySet()) {
      definePlaceholder(n, "$.parameters." + n);
    }
    List<String> secret = stringList(root, "$", "secret_parameters", false);
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
    List<String> command = stringList(root, "$", "command", true);
    if (root.has("command") && command.isEmpty()) {
      problems.add("$.command: must name at least the program to run, got []");
    }
    placeholders(command, "$.command", known);
    Map<String, String> env = stringMap(root, "$", "environment", false);
    placeholders(env, "$.environment", known);
    String readiness = string(root, "$", "readiness", false);
    if (readiness == null) {
      readiness = "health";
    } else if (!"health".equals(readiness)
        && !"websocket".equals(readiness)
        && !(readiness.startsWith("tcp:") && ports.containsKey(readiness.substring(4)))) {
      problems.add(
          "$.readiness: must be \"health\", \"websocket\" or \"tcp:<port name>\" with a port"
              + " from $.ports "
              + ports.keySet()
              + ", got \""
              + readiness
              + "\"");
    }
    // A health URL is needed only to ask it: a relay without one is ready when its WebSocket
    // handshake (or a TCP connect) succeeds.
    String health = string(root, "$", "health_url", "health".equals(readiness));
    placeholders(health, "$.health_url", known);
    String evidence = string(root, "$", "contamination_evidence", false);
    if (evidence == null) {
      evidence = RigDescriptor.EVIDENCE_METRICS;
    } else if (!RigDescriptor.EVIDENCE_METRICS.equals(evidence)
        && !RigDescriptor.EVIDENCE_CLIENT.equals(evidence)) {
      problems.add(
          "$.contamination_evidence: must be \"metrics\" (the relay's Prometheus counters) or"
              + " \"client\" (no metrics: what the generator sees), got \""
              + evidence
              + "\"");
    }
    boolean byMetrics = !RigDescriptor.EVIDENCE_CLIENT.equals(evidence);
    String metrics = string(root, "$", "metrics_url", byMetrics);
    placeholders(metrics, "$.metrics_url", known);
    if (!byMetrics) {
      for (String f : List.of("metrics_url", "metric_mapping", "positive_controlled")) {
        JsonNode v = root.get(f);
        if (v != null && !v.isNull()) {
          problems.add(
              "$."
                  + f
                  + ": a profile with \"contamination_evidence\": \"client\" has no metrics;"
                  + " remove it, or declare \"metrics\" to have the counters read");
        }
      }
    }
    String readyLinePrefix = string(root, "$", "ready_line_prefix", false);
    String treatment = string(root, "$", "treatment_arm", true);
    String control = string(root, "$", "control_arm", true);
    Map<String, Selection> arms = new LinkedHashMap<>();
    JsonNode armsNode = root.get("arms");
    if (armsNode == null || armsNode.isNull()) {
      problems.add("$.arms: missing; every arm needs a selection (args and/or env)");
    } else if (!armsNode.isObject()) {
      problems.add("$.arms: expected an object of arm name -> {args, env}");
    } else {
      for (Map.Entry<String, JsonNode> e : armsNode.properties()) {
        arms.put(e.getKey(), selection(e.getValue(), "$.arms." + e.getKey(), known));
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
            : selection(resetNode, "$.reset", known);
    List<LimiterSetting> limiter = limiter(root.get("limiter"));
    Map<String, String> mapping = stringMap(root, "$", "metric_mapping", byMetrics);
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
    List<String> positive = stringList(root, "$", "positive_controlled", false);
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
    List<TargetTemplate> targets = targets(root.get("targets"));
    Integer queueCapacity = null;
    JsonNode q = root.get("queue_capacity");
    if (q != null && !q.isNull()) {
      if (!q.canConvertToInt() || !q.isIntegralNumber() || q.asInt() < 1) {
        problems.add("$.queue_capacity: expected an integer >= 1 or null, got " + q);
      } else {
        queueCapacity = q.asInt();
      }
    }
    String sourceDir = string(root, "$", "source_dir", false);
    String binaryPath = string(root, "$", "binary_path", false);
    if (binaryPath != null) {
      placeholders(binaryPath, "$.binary_path", known);
    }
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
        new java.util.TreeSet<>(secret),
        health,
        metrics,
        evidence,
        readiness,
        readyLinePrefix,
        treatment,
        control,
        arms,
        reset,
        limiter,
        mapping,
        positive,
        targets,
        queueCapacity,
        sourceDir,
        binaryPath,
        source,
        baseDir);
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

  private Selection selection(JsonNode node, String path, Set<String> vars) {
    if (!node.isObject()) {
      problems.add(path + ": expected an object {\"args\": [...], \"env\": {...}}");
      return Selection.none();
    }
    unknownFields(node, path, Set.of("args", "env"));
    List<String> args = stringList(node, path, "args", false);
    Map<String, String> env = stringMap(node, path, "env", false);
    placeholders(args, path + ".args", vars);
    placeholders(env, path + ".env", vars);
    return new Selection(args, env);
  }

  private List<LimiterSetting> limiter(JsonNode node) {
    List<LimiterSetting> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!node.isArray()) {
      problems.add("$.limiter: expected an array of {name, value, args, env}");
      return out;
    }
    Set<String> vars = new TreeSet<>(known);
    vars.add("value");
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < node.size(); i++) {
      String path = "$.limiter[" + i + "]";
      JsonNode n = node.get(i);
      if (!n.isObject()) {
        problems.add(path + ": expected an object {name, value, args, env}");
        continue;
      }
      unknownFields(n, path, Set.of("name", "value", "args", "env"));
      String name = string(n, path, "name", true);
      String value = string(n, path, "value", true);
      if (name != null && !names.add(name)) {
        problems.add(path + ".name: duplicate limiter setting \"" + name + "\"");
      }
      List<String> args = stringList(n, path, "args", false);
      Map<String, String> env = stringMap(n, path, "env", false);
      placeholders(args, path + ".args", vars);
      placeholders(env, path + ".env", vars);
      if (args.isEmpty() && env.isEmpty()) {
        problems.add(path + ": sets nothing; give args or env that apply the value to the relay");
      }
      if (name != null && value != null) {
        out.add(new LimiterSetting(name, value, args, env));
      }
    }
    return out;
  }

  private List<TargetTemplate> targets(JsonNode node) {
    List<TargetTemplate> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      problems.add("$.targets: missing; name at least one community to publish into");
      return out;
    }
    if (!node.isArray() || node.isEmpty()) {
      problems.add("$.targets: expected a non-empty array of targets, got " + node);
      return out;
    }
    Set<String> fields = Set.of("community", "url", "host_header", "tags", "kind", "content_bytes");
    for (int i = 0; i < node.size(); i++) {
      String path = "$.targets[" + i + "]";
      JsonNode n = node.get(i);
      if (!n.isObject()) {
        problems.add(path + ": expected an object");
        continue;
      }
      unknownFields(n, path, fields);
      String community = string(n, path, "community", true);
      String url = string(n, path, "url", true);
      String host = string(n, path, "host_header", false);
      placeholders(url, path + ".url", known);
      placeholders(host, path + ".host_header", known);
      List<List<String>> tags = new ArrayList<>();
      JsonNode t = n.get("tags");
      if (t != null && !t.isNull()) {
        if (!t.isArray()) {
          problems.add(path + ".tags: expected an array of string arrays");
        } else {
          for (int j = 0; j < t.size(); j++) {
            tags.add(strings(t.get(j), path + ".tags[" + j + "]"));
          }
        }
      }
      int kind = integer(n, path, "kind", 1);
      int contentBytes = integer(n, path, "content_bytes", 0);
      if (community == null || url == null) {
        continue;
      }
      TargetTemplate tt = new TargetTemplate(community, url, host, tags, kind, contentBytes);
      try {
        // Validate the shape with every placeholder filled by a dummy: catches a bad scheme, tag
        // or kind here, at load, rather than at up. (Unknown placeholders are reported above.)
        new Target(
            community,
            url.replaceAll("\\$\\{[^}]*}", "1"),
            host == null ? null : host.replaceAll("\\$\\{[^}]*}", "1"),
            tags,
            kind,
            contentBytes);
        out.add(tt);
      } catch (IllegalArgumentException e) {
        problems.add(path + ": " + e.getMessage());
      }
    }
    return out;
  }

  private int integer(JsonNode n, String path, String field, int dflt) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      problems.add(path + "." + field + ": expected an integer, got " + v);
      return dflt;
    }
    return v.asInt();
  }

  private void unknownFields(JsonNode node, String path, Set<String> allowed) {
    Iterator<String> it = node.fieldNames();
    while (it.hasNext()) {
      String f = it.next();
      if (!allowed.contains(f)) {
        problems.add(path + "." + f + ": unknown field; expected one of " + new TreeSet<>(allowed));
      }
    }
  }

  private String string(JsonNode n, String path, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(path + "." + field + ": missing required field");
      }
      return null;
    }
    if (!v.isTextual()) {
      problems.add(path + "." + field + ": expected a string, got " + v);
      return null;
    }
    if (required && v.asText().isBlank()) {
      problems.add(path + "." + field + ": must be non-blank");
      return null;
    }
    return v.asText();
  }

  private List<String> stringList(JsonNode n, String path, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(path + "." + field + ": missing required field");
      }
      return List.of();
    }
    return strings(v, path + "." + field);
  }

  private List<String> strings(JsonNode v, String path) {
    if (!v.isArray()) {
      problems.add(path + ": expected an array of strings, got " + v);
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isTextual()) {
        problems.add(path + "[" + i + "]: expected a string, got " + v.get(i));
      } else {
        out.add(v.get(i).asText());
      }
    }
    return out;
  }

  private Map<String, String> stringMap(JsonNode n, String path, String field, boolean required) {
    JsonNode v = n.get(field);
    Map<String, String> out = new LinkedHashMap<>();
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(path + "." + field + ": missing required field");
      }
      return out;
    }
    if (!v.isObject()) {
      problems.add(path + "." + field + ": expected an object of name -> string, got " + v);
      return out;
    }
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      if (!e.getValue().isTextual()) {
        problems.add(
            path + "." + field + "." + e.getKey() + ": expected a string, got " + e.getValue());
      } else {
        out.put(e.getKey(), e.getValue().asText());
      }
    }
    return out;
  }

  private void placeholders(String text, String path, Set<String> vars) {
    if (text == null) {
      return;
    }
    for (String name : Templates.names(text)) {
      if (!vars.contains(name)) {
        problems.add(path + ": unknown placeholder ${" + name + "}; known: " + vars);
      }
    }
  }

  private void placeholders(List<String> texts, String path, Set<String> vars) {
    for (int i = 0; i < texts.size(); i++) {
      placeholders(texts.get(i), path + "[" + i + "]", vars);
    }
  }

  private void placeholders(Map<String, String> env, String path, Set<String> vars) {
    for (Map.Entry<String, String> e : env.entrySet()) {
      placeholders(e.getValue(), path + "." + e.getKey(), vars);
    }
  }
}
