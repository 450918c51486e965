package dev.ceiling.cli.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The forgery a user can make of a real control half-run: in every cell, the audit worker completed
 * one entry per accepted event ({@code counter_deltas.audit_log_count} and {@code audit_completed}
 * set to the cell's {@code events_accepted}), as it would if the control's audit path were live.
 * Edited as text on the file's JSON tree, the way a user would, not through the records.
 */
public final class AuditLiveControl {
  private AuditLiveControl() {}

  /** Writes {@code control} with a live audit path to {@code out}; returns {@code out}. */
  public static Path forge(Path control, Path out) throws IOException {
    JsonNode root = Json.mapper().readTree(Files.readString(control, StandardCharsets.UTF_8));
    int forged = 0;
    for (JsonNode cell : root.get("cells")) {
      ObjectNode relay = (ObjectNode) cell.get("relay");
      ObjectNode deltas = (ObjectNode) relay.get("counter_deltas");
      JsonNode accepted = deltas.get("events_accepted");
      double events =
          accepted == null || accepted.isNull()
              ? cell.get("counts").get("accepted_in_window").asDouble()
              : accepted.asDouble();
      deltas.put("audit_log_count", events);
      relay.put("audit_completed", Math.round(events));
      forged += events > 0 ? 1 : 0;
    }
    if (forged == 0) {
      throw new IllegalStateException(control + ": no cell accepted an event, nothing to forge");
    }
    Files.writeString(out, Json.mapper().writeValueAsString(root), StandardCharsets.UTF_8);
    return out;
  }
}
