package dev.ceiling.cli.contract;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Half-runs written as a user's files would be, with accepted/offered chosen per cell: the input of
 * the doctored-file tests of report and combine. Every cell is clean, planned and balanced, so what
 * decides is the thresholds.
 */
final class Halves {
  static final String ON = "on";
  static final String OFF = "off";
  static final double DURATION_S = 10.0;
  static final int CAPACITY = 1000;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private Halves() {}

  static ExperimentIdentity identity(List<Double> rates, int repeats) {
    return new ExperimentIdentity(
        "reference",
        ON,
        OFF,
        rates,
        DURATION_S,
        repeats,
        "ascending",
        null,
        List.of("a.localhost"),
        Map.of("human_ws_events_per_sec", "100000"),
        CAPACITY,
        "ceiling 0.1.0 sha256:abc",
        "rev1",
        null,
        "sha256:bin",
        Map.of());
  }

  /** A half whose cell at rate i, repeat r has accepted/offered {@code ratios[i][r]}. */
  static HalfRun half(ExperimentIdentity id, String arm, double[][] ratios) {
    List<Cell> cells = new ArrayList<>();
    int seq = 0;
    for (int i = 0; i < id.ratesPerS().size(); i++) {
      for (int r = 0; r < ratios[i].length; r++) {
        cells.add(cell(arm, id.ratesPerS().get(i), r, seq++, ratios[i][r]));
      }
    }
    return new HalfRun(
        SchemaVersion.CURRENT, id, arm, rig(arm), T0, T0.plusSeconds(3600), true, null, cells);
  }

  private static Cell cell(String arm, double rate, int repeat, int sequence, double ratio) {
    long offered = Math.round(rate * DURATION_S);
    long accepted = Math.round(ratio * offered);
    return Cell.builder()
        .arm(arm)
        .offeredPerS(rate)
        .repeat(repeat)
        .sequence(sequence)
        .startedAt(T0.plusSeconds(20L * sequence))
        .durationRequestedS(DURATION_S)
        .durationElapsedS(DURATION_S)
        .attempted(offered)
        .warmupSlotsSent(0L)
        .accepted(accepted)
        .unacknowledged(offered - accepted)
        .counterDeltas(
            Map.of(
                MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 0.0,
                MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE.key(), 0.0,
                MetricRole.AUDIT_WRITE_ERRORS.key(), 0.0,
                MetricRole.AUDIT_ENQUEUE_ERRORS.key(), 0.0))
        .headroom(4.0)
        .build();
  }

  private static RigDescriptor rig(String arm) {
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
        Map.of("human_ws_events_per_sec", "100000"),
        CAPACITY,
        true,
        Map.of(),
        List.of(),
        Map.of(),
        "rev1",
        null,
        "sha256:bin",
        "0.1.0",
        null);
  }
}
