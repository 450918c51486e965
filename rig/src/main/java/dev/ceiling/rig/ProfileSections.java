package dev.ceiling.rig;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.net.HostAndPort;
import dev.ceiling.core.model.Target;
import dev.ceiling.rig.RelayProfile.DelayControlTemplate;
import dev.ceiling.rig.RelayProfile.LimiterSetting;
import dev.ceiling.rig.RelayProfile.Selection;
import dev.ceiling.rig.RelayProfile.TargetTemplate;
import dev.ceiling.rig.RelayProfile.UpstreamTemplate;
import dev.ceiling.rig.internal.JsonFields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The profile's list and selection sections (arms and reset, limiter, targets, upstreams, the
 * control check), read for {@link ProfileReader} into the same problem list. {@code known} is the
 * reader's placeholder set, filled before these sections are read.
 */
final class ProfileSections {
  private final JsonFields f;
  private final List<String> problems;
  private final Set<String> known;

  ProfileSections(JsonFields f, Set<String> known) {
    this.f = f;
    this.problems = f.problems();
    this.known = known;
  }

  Selection selection(JsonNode node, String path, Set<String> vars) {
    if (!node.isObject()) {
      problems.add(path + ": expected an object {\"args\": [...], \"env\": {...}}");
      return Selection.none();
    }
    f.unknownFields(node, path, Set.of("args", "env"));
    List<String> args = f.stringList(node, path, "args", false);
    Map<String, String> env = f.stringMap(node, path, "env", false);
    f.placeholders(args, path + ".args", vars);
    f.placeholders(env, path + ".env", vars);
    return new Selection(args, env);
  }

  private static final Set<String> ADMISSION_FIELDS =
      Set.of("per", "counts", "limit", "window_seconds", "kinds", "refusal");

  /**
   * {@code admission_limits}: the relay's stock limits, each checked field by field so that every
   * problem of every entry is reported at once.
   */
  List<AdmissionLimit> admissionLimits(JsonNode node) {
    List<AdmissionLimit> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!node.isArray()) {
      problems.add(
          "$.admission_limits: expected an array of {per, counts, limit, window_seconds, kinds,"
              + " refusal}");
      return out;
    }
    for (int i = 0; i < node.size(); i++) {
      String path = "$.admission_limits[" + i + "]";
      JsonNode n = node.get(i);
      if (!n.isObject()) {
        problems.add(
            path + ": expected an object {per, counts, limit, window_seconds, kinds, refusal}");
        continue;
      }
      f.unknownFields(n, path, ADMISSION_FIELDS);
      int before = problems.size();
      AdmissionLimit.Per per =
          keyed(
              n,
              path,
              "per",
              AdmissionLimit.Per::fromKey,
              AdmissionLimit.Per.values(),
              AdmissionLimit.Per::key);
      AdmissionLimit.Counted counts =
          keyed(
              n,
              path,
              "counts",
              AdmissionLimit.Counted::fromKey,
              AdmissionLimit.Counted.values(),
              AdmissionLimit.Counted::key);
      JsonNode limit = n.get("limit");
      if (limit == null || !limit.isIntegralNumber() || limit.asLong() < 1) {
        problems.add(path + ".limit: expected an integer >= 1, got " + limit);
      }
      JsonNode window = n.get("window_seconds");
      if (window == null || !window.isNumber() || !(window.asDouble() > 0)) {
        problems.add(path + ".window_seconds: expected a number of seconds > 0, got " + window);
      }
      List<AdmissionLimit.KindRange> kinds = kinds(n.get("kinds"), path + ".kinds");
      if (!kinds.isEmpty() && counts != null && counts != AdmissionLimit.Counted.EVENTS) {
        problems.add(
            path
                + ".kinds: only a limit that counts events applies to kinds; this one counts "
                + counts.key());
      }
      if (per == AdmissionLimit.Per.CONNECTION && counts == AdmissionLimit.Counted.CONNECTIONS) {
        problems.add(
            path + ": a budget of connections per connection counts nothing; use source_address");
      }
      AdmissionLimit.Refusal refusal = refusal(n.get("refusal"), path + ".refusal");
      if (problems.size() == before) {
        out.add(
            new AdmissionLimit(
                per,
                counts,
                limit.asLong(),
                Duration.ofNanos(Math.round(window.asDouble() * 1e9)),
                kinds,
                refusal));
      }
    }
    return out;
  }

  private <T> T keyed(
      JsonNode n,
      String path,
      String field,
      java.util.function.Function<String, java.util.Optional<T>> parse,
      T[] all,
      java.util.function.Function<T, String> key) {
    String text = f.string(n, path, field, true);
    if (text == null) {
      return null;
    }
    java.util.Optional<T> v = parse.apply(text);
    if (v.isEmpty()) {
      List<String> keys = new ArrayList<>();
      for (T t : all) {
        keys.add(key.apply(t));
      }
      problems.add(path + "." + field + ": expected one of " + keys + ", got \"" + text + "\"");
      return null;
    }
    return v.get();
  }

  private List<AdmissionLimit.KindRange> kinds(JsonNode node, String path) {
    List<AdmissionLimit.KindRange> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!node.isArray() || node.isEmpty()) {
      problems.add(
          path
              + ": expected a non-empty array of kinds (a number, or [first, last]), or null for every kind");
      return out;
    }
    for (int i = 0; i < node.size(); i++) {
      JsonNode k = node.get(i);
      int first;
      int last;
      if (k.isIntegralNumber()) {
        first = k.asInt();
        last = first;
      } else if (k.isArray()
          && k.size() == 2
          && k.get(0).isIntegralNumber()
          && k.get(1).isIntegralNumber()) {
        first = k.get(0).asInt();
        last = k.get(1).asInt();
      } else {
        problems.add(path + "[" + i + "]: expected a kind or [first, last], got " + k);
        continue;
      }
      try {
        out.add(new AdmissionLimit.KindRange(first, last));
      } catch (IllegalArgumentException e) {
        problems.add(path + "[" + i + "]: " + e.getMessage());
      }
    }
    return out;
  }

  private AdmissionLimit.Refusal refusal(JsonNode node, String path) {
    if (node == null || !node.isObject()) {
      problems.add(
          path
              + ": expected an object {\"answer\": \"ok_false\"|\"notice\"|\"connection_closed\", \"prefix\": ...}");
      return null;
    }
    f.unknownFields(node, path, Set.of("answer", "prefix"));
    AdmissionLimit.Answer answer =
        keyed(
            node,
            path,
            "answer",
            AdmissionLimit.Answer::fromKey,
            AdmissionLimit.Answer.values(),
            AdmissionLimit.Answer::key);
    String prefix = f.string(node, path, "prefix", false);
    if (answer == null) {
      return null;
    }
    try {
      return new AdmissionLimit.Refusal(answer, prefix);
    } catch (IllegalArgumentException e) {
      problems.add(path + ".prefix: " + e.getMessage());
      return null;
    }
  }

  List<LimiterSetting> limiter(JsonNode node) {
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
      f.unknownFields(n, path, Set.of("name", "value", "args", "env"));
      String name = f.string(n, path, "name", true);
      String value = f.string(n, path, "value", true);
      if (name != null && !names.add(name)) {
        problems.add(path + ".name: duplicate limiter setting \"" + name + "\"");
      }
      List<String> args = f.stringList(n, path, "args", false);
      Map<String, String> env = f.stringMap(n, path, "env", false);
      f.placeholders(args, path + ".args", vars);
      f.placeholders(env, path + ".env", vars);
      if (args.isEmpty() && env.isEmpty()) {
        problems.add(path + ": sets nothing; give args or env that apply the value to the relay");
      }
      if (name != null && value != null) {
        out.add(new LimiterSetting(name, value, args, env));
      }
    }
    return out;
  }

  List<TargetTemplate> targets(JsonNode node) {
    List<TargetTemplate> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      problems.add("$.targets: missing; name at least one community to publish into");
      return out;
    }
    if (!node.isArray() || node.isEmpty()) {
      problems.add("$.targets: expected a non-empty array of targets, got " + node);
      return out;
    }
    for (int i = 0; i < node.size(); i++) {
      target(node.get(i), "$.targets[" + i + "]").ifPresent(out::add);
    }
    return out;
  }

  private static final Set<String> TARGET_FIELDS =
      Set.of("community", "url", "host_header", "tags", "kind", "content_bytes");

  /** One target, or empty with its problems added. */
  private java.util.Optional<TargetTemplate> target(JsonNode n, String path) {
    if (!n.isObject()) {
      problems.add(path + ": expected an object");
      return java.util.Optional.empty();
    }
    f.unknownFields(n, path, TARGET_FIELDS);
    String community = f.string(n, path, "community", true);
    String url = f.string(n, path, "url", true);
    String host = f.string(n, path, "host_header", false);
    f.placeholders(url, path + ".url", known);
    f.placeholders(host, path + ".host_header", known);
    List<List<String>> tags = new ArrayList<>();
    JsonNode t = n.get("tags");
    if (t != null && !t.isNull()) {
      if (!t.isArray()) {
        problems.add(path + ".tags: expected an array of string arrays");
      } else {
        for (int j = 0; j < t.size(); j++) {
          tags.add(f.strings(t.get(j), path + ".tags[" + j + "]"));
        }
      }
    }
    int kind = f.integer(n, path, "kind", 1);
    int contentBytes = f.integer(n, path, "content_bytes", Target.DEFAULT_LOAD_CONTENT_BYTES);
    if (contentBytes < Target.MIN_LOAD_CONTENT_BYTES) {
      // Refused here, at load, since every command that offers load would fail on it later.
      problems.add(
          path
              + ".content_bytes: must be at least "
              + Target.MIN_LOAD_CONTENT_BYTES
              + " so every event has its own id (a nonce and the slot number), got "
              + contentBytes);
    }
    if (community == null || url == null) {
      return java.util.Optional.empty();
    }
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
      return java.util.Optional.of(
          new TargetTemplate(community, url, host, tags, kind, contentBytes));
    } catch (IllegalArgumentException e) {
      problems.add(path + ": " + e.getMessage());
      return java.util.Optional.empty();
    }
  }

  /**
   * The upstreams: each a unique name and a {@code host:port} target template over {@code linkable}
   * placeholders; each defines {@code ${upstream.NAME.host|port|address}}.
   */
  List<UpstreamTemplate> upstreams(JsonNode node, Set<String> linkable) {
    List<UpstreamTemplate> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!node.isArray()) {
      problems.add("$.upstreams: expected an array of {\"name\", \"target\"}, got " + node);
      return out;
    }
    for (int i = 0; i < node.size(); i++) {
      String path = "$.upstreams[" + i + "]";
      JsonNode n = node.get(i);
      if (!n.isObject()) {
        problems.add(path + ": expected an object {\"name\", \"target\"}, got " + n);
        continue;
      }
      f.unknownFields(n, path, Set.of("name", "target"));
      String name = f.string(n, path, "name", true);
      String target = f.string(n, path, "target", true);
      boolean named = name != null && upstreamName(name, path);
      if (target != null) {
        f.placeholders(target, path + ".target", linkable);
        hostAndPort(target, path + ".target");
      }
      if (named && target != null) {
        out.add(new UpstreamTemplate(name, target));
      }
    }
    return out;
  }

  /**
   * The delay controls: each a name unique among the upstreams and the controls, a URL template
   * over the known placeholders, and the selector of the relay's turns counter, which needs a
   * {@code metrics_url} to be read from.
   */
  List<DelayControlTemplate> delayControls(
      JsonNode node, List<UpstreamTemplate> upstreams, boolean hasMetricsUrl) {
    List<DelayControlTemplate> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    String shape = "{\"name\", \"url\", \"turns_metric\"}";
    if (!node.isArray()) {
      problems.add("$.delay_controls: expected an array of " + shape + ", got " + node);
      return out;
    }
    if (!hasMetricsUrl && !node.isEmpty()) {
      problems.add(
          "$.delay_controls: a control's turns are read from metrics_url, which is absent");
    }
    Set<String> names = new TreeSet<>();
    upstreams.forEach(u -> names.add(u.name()));
    for (int i = 0; i < node.size(); i++) {
      String path = "$.delay_controls[" + i + "]";
      JsonNode n = node.get(i);
      if (!n.isObject()) {
        problems.add(path + ": expected an object " + shape + ", got " + n);
        continue;
      }
      f.unknownFields(n, path, Set.of("name", "url", "turns_metric", "lateness_metric"));
      String name = f.string(n, path, "name", true);
      String url = f.string(n, path, "url", true);
      String turns = f.string(n, path, "turns_metric", true);
      String lateness = f.string(n, path, "lateness_metric", false);
      f.placeholders(url, path + ".url", known);
      boolean named = name != null && name.matches("[A-Za-z0-9_-]+");
      if (name != null && !named) {
        problems.add(path + ".name: must match [A-Za-z0-9_-]+, got \"" + name + "\"");
      } else if (named && !names.add(name)) {
        problems.add(
            path
                + ".name: \""
                + name
                + "\" names another upstream or control; a link has one name");
      }
      if (named && url != null && turns != null) {
        out.add(new DelayControlTemplate(name, url, turns, lateness));
      }
    }
    return out;
  }

  /** A name usable inside a placeholder, claiming its three placeholders. */
  private boolean upstreamName(String name, String path) {
    if (!name.matches("[A-Za-z0-9_-]+")) {
      problems.add(
          path
              + ".name: must match [A-Za-z0-9_-]+ to be usable as ${upstream."
              + name
              + ".port}, got \""
              + name
              + "\"");
      return false;
    }
    UpstreamTemplate probe = new UpstreamTemplate(name, "");
    for (String suffix : UpstreamTemplate.PLACEHOLDER_SUFFIXES) {
      if (!known.add(probe.placeholder(suffix))) {
        problems.add(
            path
                + ".name: \""
                + name
                + "\" is declared twice (${"
                + probe.placeholder(suffix)
                + "})");
        return false;
      }
    }
    return true;
  }

  /** The shape, with every placeholder filled by a dummy port number. */
  private void hostAndPort(String target, String path) {
    String filled = target.replaceAll("\\$\\{[^}]*}", "1");
    try {
      HostAndPort hp = HostAndPort.fromString(filled);
      if (!hp.hasPort() || hp.getHost().isEmpty() || hp.getPort() < 1) {
        problems.add(path + ": expected host:port, e.g. 127.0.0.1:5432, got \"" + target + "\"");
      }
    } catch (IllegalArgumentException e) {
      problems.add(
          path
              + ": expected host:port with a port in [1, 65535], e.g. 127.0.0.1:5432, got \""
              + target
              + "\"");
    }
  }

  /**
   * The control check's argv, or null. A secret parameter may not appear in it: the descriptor,
   * which the sweep runs it from, holds it in clear.
   */
  List<String> controlCheck(JsonNode root, List<String> secret) {
    if (!root.has("control_check") || root.get("control_check").isNull()) {
      return null;
    }
    List<String> check = f.stringList(root, "$", "control_check", true);
    if (check.isEmpty()) {
      problems.add("$.control_check: must name at least the program to run, got []");
    }
    f.placeholders(check, "$.control_check", known);
    for (String arg : check) {
      for (String name : known) {
        if (arg.contains("${" + name + "}")
            && (secret.contains(name) || RelayProfile.SECRET_NAME.matcher(name).matches())) {
          problems.add(
              "$.control_check: uses the secret parameter '"
                  + name
                  + "', which the descriptor would hold in clear; read it from the environment"
                  + " instead");
        }
      }
    }
    return check;
  }
}
