package dev.ceiling.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;

/**
 * The reader for schema version 1 documents. Version 1 wrote a cell as one flat object of 37
 * fields; version 2 groups them ({@link CellKey}, {@link CellCounts}, {@link CellLatencies}, {@link
 * RelayFigures}, {@link CellEnvironment}) and adds {@code counts.warmup_slots_sent}, which version
 * 1 did not record (read as null: the verdict then cannot bound {@code accepted_in_window} and says
 * so).
 *
 * <p>The upgrade works on the parsed tree before binding, so the strict reader still checks every
 * field of the upgraded document: a version 1 file with a missing or unknown field is still
 * refused.
 */
public final class SchemaVersion1 {
  private SchemaVersion1() {}

  /**
   * Marks a document type whose schema version 1 files are upgraded on reading (its {@code
   * schema_version}, and that of the documents it embeds under {@code rig}, {@code treatment} and
   * {@code control}, is raised to {@link SchemaVersion#CURRENT}). Cells are upgraded in any
   * document.
   */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  public @interface Upgradable {}

  /** Version 1 field names of a flat cell, by the version 2 group that now holds them. */
  private static final Map<String, List<String>> GROUPS =
      Map.of(
          "key", List.of("arm", "offered_per_s", "repeat", "sequence", "two_community"),
          "counts",
              List.of(
                  "attempted",
                  "accepted",
                  "accepted_in_window",
                  "accepted_per_s",
                  "accepted_over_offered",
                  "rejected",
                  "rejected_by_prefix",
                  "notices",
                  "unacknowledged",
                  "transport_errors",
                  "accepted_by_community"),
          "latencies", List.of("send_lag", "service", "scheduled"),
          "relay",
              List.of(
                  "counter_deltas",
                  "counter_resets",
                  "audit_completed",
                  "audit_completed_per_s",
                  "audit_service_mean_ms",
                  "audit_busy_fraction",
                  "outstanding_delta",
                  "queue_depth_before",
                  "queue_depth_after"),
          "environment",
              List.of(
                  "started_at",
                  "duration_requested_s",
                  "duration_elapsed_s",
                  "generator_bound",
                  "generator_bound_reason",
                  "headroom",
                  "drain_wait_s",
                  "load_per_cpu_before",
                  "load_per_cpu_after"));

  /** The groups in the order version 2 writes them. */
  private static final List<String> ORDER =
      List.of("key", "counts", "latencies", "relay", "environment");

  /**
   * Upgrades a parsed document in place.
   *
   * @return true when anything was upgraded (errors then say the file was read as version 1)
   */
  public static boolean upgrade(JsonNode root, Class<?> type) {
    boolean changed = false;
    if (type.isAnnotationPresent(Upgradable.class)) {
      changed = raiseVersions(root);
    }
    fillUnrecordedIdentities(root);
    return upgradeCells(root) || changed;
  }

  /**
   * Measurement settings written before the number of identities was recorded lack it: unknown,
   * read as null, in any version (not an upgrade of the document's version, so not reported as
   * one).
   */
  private static void fillUnrecordedIdentities(JsonNode node) {
    if (node instanceof ObjectNode o
        && o.has("warmup_s")
        && o.has("send_lag_bound_ms")
        && !o.has("identities")) {
      o.putNull("identities");
    }
    if (node != null && node.isContainerNode()) {
      for (JsonNode child : node) {
        fillUnrecordedIdentities(child);
      }
    }
  }

  private static boolean raiseVersions(JsonNode node) {
    if (!(node instanceof ObjectNode o)) {
      return false;
    }
    boolean changed = false;
    JsonNode v = o.get("schema_version");
    if (v != null && v.isInt() && v.intValue() == 1) {
      o.put("schema_version", SchemaVersion.CURRENT);
      changed = true;
      // Version 1 had no relay without metrics: every descriptor's evidence was its counters.
      if (o.has("rig_id") && o.has("metrics_url") && !o.has("contamination_evidence")) {
        o.put("contamination_evidence", RigDescriptor.EVIDENCE_METRICS);
      }
    }
    // Version 1 identities did not record warm-up, grace and send-lag bound: unknown, not zero.
    if (o.has("generator_identity") && o.has("rates_per_s") && !o.has("measurement")) {
      o.putNull("measurement");
    }
    for (String embedded : List.of("rig", "treatment", "control", "identity")) {
      changed |= raiseVersions(o.get(embedded));
    }
    return changed;
  }

  private static boolean upgradeCells(JsonNode node) {
    boolean changed = false;
    if (node instanceof ObjectNode o && isFlatCell(o)) {
      nest(o);
      return true;
    }
    if (node != null && node.isContainerNode()) {
      for (JsonNode child : node) {
        changed |= upgradeCells(child);
      }
    }
    return changed;
  }

  /** A version 1 cell: its own distinctive fields at the top level, no version 2 group. */
  private static boolean isFlatCell(ObjectNode o) {
    return o.has("offered_per_s")
        && o.has("sequence")
        && o.has("accepted_in_window")
        && o.has("counter_deltas")
        && !o.has("key");
  }

  private static void nest(ObjectNode cell) {
    ObjectNode flat = cell.deepCopy();
    cell.removeAll();
    for (String group : ORDER) {
      ObjectNode g = cell.putObject(group);
      for (String field : GROUPS.get(group)) {
        if (flat.has(field)) {
          g.set(field, flat.remove(field));
        }
        if ("attempted".equals(field)) {
          g.set("warmup_slots_sent", NullNode.getInstance());
        }
        if ("notices".equals(field)) {
          g.set("first_notice", NullNode.getInstance());
        }
        if ("unacknowledged".equals(field)) {
          g.set("unknown_ok_ids", NullNode.getInstance());
        }
        if ("load_per_cpu_after".equals(field)) {
          g.set("scrape_start_s", NullNode.getInstance());
          g.set("scrape_end_s", NullNode.getInstance());
        }
      }
    }
    // Whatever is left was not a version 1 field: keep it where it was, so the strict reader
    // names it as unknown.
    cell.setAll(flat);
  }
}
