package dev.ceiling.core.testing;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.Target;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Hand-built half-runs for the tests of every module that judges them (verdict, junit, cli): one
 * identity, one rig, one clean cell, so the three test suites no longer each carry a copy. Arms
 * "on" (treatment) and "off" (control); every contamination counter exposed and zero.
 */
public final class HalfRuns {
  public static final String ON = "on";
  public static final String OFF = "off";
  public static final int CAPACITY = 1000;
  public static final Map<String, String> LIMITER = Map.of("human_ws_events_per_sec", "100000");
  public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * Every contamination counter exposed and zero, the audit completion counter included (flat in
   * the control arm, so the control is verified positive).
   */
  public static final Map<String, Double> CLEAN_COUNTERS =
      Map.of(
          MetricRole.AUDIT_LOG_COUNT.key(), 0.0,
          MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 0.0,
          MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE.key(), 0.0,
          MetricRole.AUDIT_WRITE_ERRORS.key(), 0.0,
          MetricRole.AUDIT_ENQUEUE_ERRORS.key(), 0.0);

  private HalfRuns() {}

  /** The reference profile's identity, arms on/off, with this grid. */
  public static ExperimentIdentity identity(List<Double> rates, int repeats, double durationS) {
    return new ExperimentIdentity(
        "reference",
        ON,
        OFF,
        rates,
        durationS,
        repeats,
        "ascending",
        null,
        List.of("a.localhost"),
        LIMITER,
        CAPACITY,
        "ceiling 0.1.0 sha256:abc",
        "rev1",
        null,
        "sha256:bin",
        Map.of());
  }

  /** The rig an identity from {@link #identity} agrees with. */
  public static RigDescriptor rig(String arm) {
    return rig(arm, CAPACITY, LIMITER);
  }

  /** A rig that ran with this queue capacity and these limiter settings. */
  public static RigDescriptor rig(String arm, Integer capacity, Map<String, String> limiter) {
    return new RigDescriptor(
        SchemaVersion.CURRENT,
        "rig-" + arm,
        "reference",
        arm,
        null,
        null,
        null,
        null,
        "http://127.0.0.1:1/health",
        "http://127.0.0.1:1/metrics",
        RigDescriptor.EVIDENCE_METRICS,
        List.of(new Target("a", "ws://127.0.0.1:1/", "a.localhost", List.of(), 1, 0)),
        limiter,
        capacity,
        true,
        Map.of(),
        List.of(),
        Map.of(),
        "rev1",
        null,
        "sha256:bin",
        "0.1.0",
        null,
        null);
  }

  /**
   * A clean cell whose accepted/offered is {@code ratio} (rounded to whole events), balanced
   * (accepted + unacknowledged = attempted), headroom 4x; the caller adds relay figures.
   */
  public static CellBuilder cell(
      String arm, double rate, int repeat, int sequence, double durationS, double ratio) {
    long offered = Math.round(rate * durationS);
    long accepted = Math.round(ratio * offered);
    return Cell.builder()
        .arm(arm)
        .offeredPerS(rate)
        .repeat(repeat)
        .sequence(sequence)
        .startedAt(T0.plusSeconds(20L * sequence))
        .durationRequestedS(durationS)
        .durationElapsedS(durationS)
        .attempted(offered)
        .warmupSlotsSent(0L)
        .accepted(accepted)
        .unacknowledged(offered - accepted)
        .counterDeltas(CLEAN_COUNTERS)
        .headroom(4.0);
  }

  /** A complete half on {@link #rig(String)}. */
  public static HalfRun half(ExperimentIdentity id, String arm, List<Cell> cells) {
    return half(id, arm, rig(arm), cells);
  }

  /** A complete half on the given rig. */
  public static HalfRun half(
      ExperimentIdentity id, String arm, RigDescriptor rig, List<Cell> cells) {
    return new HalfRun(
        SchemaVersion.CURRENT, id, arm, rig, T0, T0.plusSeconds(3600), true, null, cells);
  }
}
