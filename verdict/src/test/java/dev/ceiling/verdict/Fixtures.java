package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
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
import java.util.function.UnaryOperator;

/** Builders for identities, cells and half-runs used across the verdict's tests. */
final class Fixtures {
  static final String ON = "on";
  static final String OFF = "off";
  static final double DURATION_S = 10.0;
  static final int CAPACITY = 1000;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** Every contamination counter exposed and zero. */
  static final Map<String, Double> CLEAN_COUNTERS =
      Map.of(
          MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 0.0,
          MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE.key(), 0.0,
          MetricRole.AUDIT_WRITE_ERRORS.key(), 0.0,
          MetricRole.AUDIT_ENQUEUE_ERRORS.key(), 0.0);

  private Fixtures() {}

  static ExperimentIdentity identity(List<Double> rates, int repeats) {
    return identity(rates, repeats, DURATION_S);
  }

  static ExperimentIdentity identity(List<Double> rates, int repeats, double durationS) {
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
        Map.of("human_ws_events_per_sec", "100000"),
        CAPACITY,
        "ceiling 0.1.0 sha256:abc",
        "rev1",
        null,
        "sha256:bin",
        java.util.Map.of());
  }

  static RigDescriptor rig(String arm) {
    return rig(arm, CAPACITY, Map.of("human_ws_events_per_sec", "100000"));
  }

  /** A rig that ran with this queue capacity and these limiter settings. */
  static RigDescriptor rig(String arm, Integer capacity, Map<String, String> limiter) {
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
        null);
  }

  /**
   * A clean evidence cell whose accepted/offered is {@code ratio} (rounded to whole events). A
   * treatment cell gets a steady, busy audit path completing at {@code min(rate, 400)}/s; a control
   * cell has no queue.
   */
  static Cell cell(String arm, double rate, int repeat, int sequence, double ratio) {
    long offered = Math.round(rate * DURATION_S);
    long accepted = Math.round(ratio * offered);
    CellBuilder b =
        Cell.builder()
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
            .counterDeltas(CLEAN_COUNTERS)
            .headroom(4.0);
    if (arm.equals(ON)) {
      double completedPerS = Math.min(rate, 400.0);
      b.auditCompleted(Math.round(completedPerS * DURATION_S))
          .auditCompletedPerS(completedPerS)
          .auditServiceMeanMs(2.5)
          .auditBusyFraction(completedPerS / 400.0)
          .outstandingDelta(0L);
    }
    return b.build();
  }

  /** A half-run whose cells have ratios[rateIndex][repeat], in ascending order. */
  static HalfRun half(ExperimentIdentity id, String arm, double[][] ratios) {
    List<Cell> cells = new ArrayList<>();
    int seq = 0;
    for (int i = 0; i < id.ratesPerS().size(); i++) {
      for (int r = 0; r < ratios[i].length; r++) {
        cells.add(cell(arm, id.ratesPerS().get(i), r, seq++, ratios[i][r]));
      }
    }
    return half(id, arm, cells);
  }

  static HalfRun half(ExperimentIdentity id, String arm, List<Cell> cells) {
    return new HalfRun(
        SchemaVersion.CURRENT,
        id,
        arm,
        rig(arm),
        Instant.parse("2026-01-01T00:00:00Z"),
        Instant.parse("2026-01-01T01:00:00Z"),
        true,
        null,
        cells);
  }

  /** The same half with every cell passed through {@code f}. */
  static HalfRun mapCells(HalfRun h, UnaryOperator<Cell> f) {
    return new HalfRun(
        h.schemaVersion(),
        h.identity(),
        h.arm(),
        h.rig(),
        h.startedAt(),
        h.finishedAt(),
        h.complete(),
        h.incompleteReason(),
        h.cells().stream().map(f).toList());
  }

  /** Rows of constant values: {@code rates} rows of {@code n} copies of {@code v}. */
  static double[][] constant(int rates, int n, double v) {
    double[][] out = new double[rates][n];
    for (double[] row : out) {
      java.util.Arrays.fill(row, v);
    }
    return out;
  }

  /** Six rates, 100..600/s. */
  static final List<Double> SIX_RATES = List.of(100.0, 200.0, 300.0, 400.0, 500.0, 600.0);

  /**
   * A realistic separating run: control pinned near 1.0; treatment tracks until 400/s, then drops
   * to 400/rate with a little noise.
   */
  static CombinedRun separating() {
    ExperimentIdentity id = identity(SIX_RATES, 3);
    double[][] on = {
      {1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0},
      {1.0, 0.999, 1.0},
      {0.97, 0.985, 0.99},
      {0.80, 0.79, 0.805},
      {0.665, 0.67, 0.66},
    };
    double[][] off = {
      {1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0},
      {1.0, 1.0, 0.999},
      {1.0, 0.998, 1.0},
      {0.999, 1.0, 1.0},
    };
    return new CombinedRun(id, half(id, ON, on), half(id, OFF, off));
  }
}
