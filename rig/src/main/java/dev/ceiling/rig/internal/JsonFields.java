package dev.ceiling.rig.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed reads from a JSON tree that never throw: each mistake becomes one problem naming its JSON
 * path, and reading goes on, so a file's every problem is reported at once. A missing optional
 * field reads as null, an empty list or an empty map.
 */
public final class JsonFields {
  private final List<String> problems = new ArrayList<>();

  /** Every problem found so far, in the order found. */
  public List<String> problems() {
    return problems;
  }

  /** Records a problem found by the caller. */
  public void problem(String message) {
    problems.add(message);
  }

  public int integer(JsonNode n, String path, String field, int dflt) {
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

  public void unknownFields(JsonNode node, String path, Set<String> allowed) {
    Iterator<String> it = node.fieldNames();
    while (it.hasNext()) {
      String f = it.next();
      if (!allowed.contains(f)) {
        problems.add(path + "." + f + ": unknown field; expected one of " + new TreeSet<>(allowed));
      }
    }
  }

  public String string(JsonNode n, String path, String field, boolean required) {
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

  public List<String> stringList(JsonNode n, String path, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(path + "." + field + ": missing required field");
      }
      return List.of();
    }
    return strings(v, path + "." + field);
  }

  public List<String> strings(JsonNode v, String path) {
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

  public Map<String, String> stringMap(JsonNode n, String path, String field, boolean required) {
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

  /** Every {@code ${name}} in {@code text} must be one of {@code vars}. */
  public void placeholders(String text, String path, Set<String> vars) {
    if (text == null) {
      return;
    }
    for (String name : Templates.names(text)) {
      if (!vars.contains(name)) {
        problems.add(path + ": unknown placeholder ${" + name + "}; known: " + vars);
      }
    }
  }

  public void placeholders(List<String> texts, String path, Set<String> vars) {
    for (int i = 0; i < texts.size(); i++) {
      placeholders(texts.get(i), path + "[" + i + "]", vars);
    }
  }

  public void placeholders(Map<String, String> env, String path, Set<String> vars) {
    for (Map.Entry<String, String> e : env.entrySet()) {
      placeholders(e.getValue(), path + "." + e.getKey(), vars);
    }
  }
}
