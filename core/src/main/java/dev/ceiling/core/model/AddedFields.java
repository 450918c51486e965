package dev.ceiling.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Fields added to the current schema after files were first written with it. The strict reader
 * requires every field, so a file written before a field existed would be refused; instead, on
 * reading, an object that has the field's siblings but not the field gets it as null ("not
 * measured"), and the strict reader still checks everything else. Adding a field this way keeps old
 * reports readable; renaming one would not, so fields are only ever added.
 */
public final class AddedFields {
  private AddedFields() {}

  /**
   * One added field: {@code field} is filled with null in any object that has every one of {@code
   * siblings} (fields that identify the object's type) and lacks it.
   */
  record Added(String field, List<String> siblings) {}

  /** Fields that every cell's counts and every generator result have. */
  private static final List<String> WINDOW_COUNTS_SIBLINGS =
      List.of("attempted", "accepted_in_window", "warmup_slots_sent");

  /** Fields that every delay sweep's cell has (DelaySweepCell). */
  private static final List<String> SWEEP_CELL_SIBLINGS =
      List.of("planned", "ceiling_used", "audit_events", "turns_per_event");

  /** Fields that every row of a sweep per link has (LinkSweepsReport.Row). */
  private static final List<String> LINK_ROW_SIBLINGS =
      List.of("link", "dir", "outcome", "wire_turns_per_event_all_cells");

  static final List<Added> ADDED =
      List.of(
          // A cell's counts (CellCounts) and a generator's result: OK-false answers per half of
          // the window; null is "not recorded", and a cell leaves them out of its JSON then.
          new Added("rejected_in_window_first_half", WINDOW_COUNTS_SIBLINGS),
          new Added("rejected_in_window_second_half", WINDOW_COUNTS_SIBLINGS),
          // A cell's environment (CellEnvironment).
          new Added("wake_floor_p99_ms", List.of("started_at", "drain_wait_s", "headroom")),
          new Added("drain_timeout", List.of("started_at", "drain_wait_s", "headroom")),
          new Added("scrape_window_s", List.of("started_at", "drain_wait_s", "headroom")),
          // Null is "not recorded"; a cell leaves it out of its JSON when null.
          new Added("links", List.of("started_at", "drain_wait_s", "headroom")),
          // A cell's relay figures (RelayFigures).
          new Added(
              "control_check", List.of("counter_deltas", "counter_resets", "audit_busy_fraction")),
          new Added(
              "pool_busy_fraction",
              List.of("counter_deltas", "counter_resets", "audit_busy_fraction")),
          // A rig descriptor (RigDescriptor).
          new Added("control_check", List.of("rig_id", "metric_mapping", "relay_info")),
          // An experiment's identity (ExperimentIdentity): null is "no equivalence question".
          new Added("equivalence_margin", List.of("treatment_arm", "rates_per_s", "order_seed")),
          // An identity's measurement settings (MeasurementSettings): null is "the OS chose".
          new Added("source_addresses", List.of("warmup_s", "grace_s", "send_lag_bound_ms")),
          // A verdict (VerdictReport): null where the identity declared no margin.
          new Added("equivalence", List.of("control_marker", "failures", "comparable_rates")),
          // A delay sweep's report (DelaySweepReport): null is "one session, before resume".
          new Added("sessions", List.of("plan", "fit_problem", "wire_turns_per_event")),
          // A delay sweep's report: null is "the worker's rates were the ceilings" (as before
          // a relay without a worker metric could be swept) and "no wire count per OK-true answer".
          new Added("ceiling_from", List.of("plan", "fit_problem", "wire_turns_per_event")),
          new Added(
              "wire_turns_per_ok_true", List.of("plan", "fit_problem", "wire_turns_per_event")),
          // A delay sweep's cell (DelaySweepCell): the same, per cell; each is left out of the
          // JSON when null, so a reference-relay sweep's file stays as it was.
          new Added("ceiling_from", SWEEP_CELL_SIBLINGS),
          new Added("client_ceiling_per_s", SWEEP_CELL_SIBLINGS),
          new Added("ok_true_answers", SWEEP_CELL_SIBLINGS),
          new Added("turns_per_ok_true", SWEEP_CELL_SIBLINGS),
          new Added("not_used", SWEEP_CELL_SIBLINGS),
          // A delay sweep's plan (DelaySweepPlan): null is "one rate at every delay".
          new Added("per_point_offer", List.of("delays_ms", "offer_rule", "lack_of_fit_alpha")),
          // The latency slope (LatencySlope, LatencyCell): null is "no latency offer declared",
          // as in every file written before the latency slope; each is left out when null.
          new Added(
              "latency_offered_per_s", List.of("delays_ms", "offer_rule", "lack_of_fit_alpha")),
          new Added("latency", SWEEP_CELL_SIBLINGS),
          new Added("latency_slope", List.of("plan", "fit_problem", "wire_turns_per_event")),
          // A sweep per link's row (LinkSweepsReport.Row): the latency slope's columns.
          new Added("latency_round_trips", LINK_ROW_SIBLINGS),
          new Added("latency_line_holds", LINK_ROW_SIBLINGS),
          new Added("latency_wire_turns_per_ok_true", LINK_ROW_SIBLINGS),
          new Added("bytes_to_target_per_ok_true", LINK_ROW_SIBLINGS),
          new Added("bytes_to_relay_per_ok_true", LINK_ROW_SIBLINGS),
          new Added("ceiling_reading", LINK_ROW_SIBLINGS),
          // A delay sweep's plan: null is "the first offer rests on the relay's prediction or a
          // given rate"; left out of the JSON when null.
          new Added("ceiling_ramp", List.of("delays_ms", "offer_rule", "lack_of_fit_alpha")),
          // A delay sweep's plan and report, and an explain plan's round settings: null is "no
          // what-if (--at)"; left out of the JSON when null.
          new Added("holdout_delay_ms", List.of("delays_ms", "offer_rule", "lack_of_fit_alpha")),
          new Added("what_if", List.of("plan", "fit_problem", "wire_turns_per_event")),
          new Added("holdout_delay_ms", List.of("warmup_s", "rate_multiples", "delays_ms")),
          // A delay sweep's plan and cell: null is "each cell one offer" (no ramp per cell), as
          // in every file written before a cell could be a ramp at its delay; left out when null.
          new Added("point_ramp", List.of("delays_ms", "offer_rule", "lack_of_fit_alpha")),
          new Added("point_ramp", SWEEP_CELL_SIBLINGS),
          // A cell's counts (CellCounts) and a generator result (GeneratorReport.Result): the
          // window's halves and outstanding counts; null is "written before they were recorded".
          // A cell leaves them out of its JSON when null, so older golden files stay as they were.
          new Added("accepted_in_window_first_half", WINDOW_COUNTS_SIBLINGS),
          new Added("accepted_in_window_second_half", WINDOW_COUNTS_SIBLINGS),
          new Added("accepted_in_window_own_slots", WINDOW_COUNTS_SIBLINGS),
          new Added("window_slots_outstanding_at_end", WINDOW_COUNTS_SIBLINGS),
          new Added("outstanding_at_window_start", WINDOW_COUNTS_SIBLINGS),
          new Added("outstanding_at_window_mid", WINDOW_COUNTS_SIBLINGS),
          new Added("outstanding_at_window_end", WINDOW_COUNTS_SIBLINGS),
          // The same: how long the relay had not answered when the window closed.
          new Added("silence_at_window_end_s", WINDOW_COUNTS_SIBLINGS),
          // A defaults round's report (IdentitiesRoundReport): null is "written before the round
          // read the profile's declared admission limits".
          new Added("admission", List.of("offered_per_s", "identities", "predicted_ceiling_per_s")),
          // A generator report's top level (GeneratorReport).
          new Added("wake_floor_p99_ms", List.of("clock_source", "sender_threads", "headroom")),
          // Null is "written before it was recorded"; 0 is "the OS chose".
          new Added("source_addresses", List.of("clock_source", "sender_threads", "headroom")),
          // Null is "the run covered its whole schedule": a run stopped by a signal wrote no file
          // before the field existed, so every older report is a complete one.
          new Added("incomplete", List.of("clock_source", "sender_threads", "headroom")));

  /**
   * Fills every added field missing from {@code node} and the objects inside it with null.
   *
   * @return true when anything was filled
   */
  public static boolean fill(JsonNode node) {
    boolean changed = false;
    if (node instanceof ObjectNode o) {
      for (Added a : ADDED) {
        if (!o.has(a.field()) && a.siblings().stream().allMatch(o::has)) {
          o.putNull(a.field());
          changed = true;
        }
      }
    }
    if (node != null && node.isContainerNode()) {
      for (JsonNode child : node) {
        changed |= fill(child);
      }
    }
    return changed;
  }
}
