package dev.ceiling.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Fields added to schema version 2 after files were first written with it. A file written before a
 * field existed did not record it, so it reads as null ("not recorded"), never as a value: a cell
 * without {@code environment.drain_timeout} or {@code relay.control_check}, a rig descriptor
 * without {@code control_check}. Works on the parsed tree before binding, so the strict reader
 * still refuses any other missing or unknown field.
 */
public final class LaterFields {
  private LaterFields() {}

  /** Adds the later fields as null wherever a document lacks them; true when any was added. */
  public static boolean fill(JsonNode node) {
    boolean changed = false;
    if (node instanceof ObjectNode o) {
      if (o.has("key") && o.has("counts") && o.has("relay") && o.has("environment")) {
        changed |= nullIfMissing(o.get("relay"), "control_check");
        changed |= nullIfMissing(o.get("environment"), "drain_timeout");
      }
      if (o.has("rig_id") && o.has("metric_mapping") && o.has("relay_info")) {
        changed |= nullIfMissing(o, "control_check");
      }
    }
    if (node != null && node.isContainerNode()) {
      for (JsonNode child : node) {
        changed |= fill(child);
      }
    }
    return changed;
  }

  private static boolean nullIfMissing(JsonNode node, String field) {
    if (node instanceof ObjectNode o && !o.has(field)) {
      o.putNull(field);
      return true;
    }
    return false;
  }
}
