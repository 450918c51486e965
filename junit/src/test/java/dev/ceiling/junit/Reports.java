package dev.ceiling.junit;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.CombineException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Synthetic experiments built the way a user would build them (Cell.builder, HalfRun, Combine,
 * ExperimentReport.of), with figures worked out here.
 */
final class Reports {
  static final String ON = HalfRuns.ON;
  static final String OFF = HalfRuns.OFF;
  static final double DURATION_S = 10.0;
  static final List<Double> RATES = List.of(100.0, 200.0, 300.0, 400.0, 500.0, 600.0);

  /** Per-repeat wobble of the worker's completion rate, events/s: mean 0, not constant. */
  static final double[] WOBBLE = {-1.5, 0.5, 1.0};

  private static final Instant T0 = HalfRuns.T0;
  private static final Map<String, Double> CLEAN = HalfRuns.CLEAN_COUNTERS;

  private Reports() {}

  static ExperimentIdentity identity() {
    return HalfRuns.identity(RATES, WOBBLE.length, DURATION_S);
  }

  /**
   * A treatment half whose worker completes {@code workerPerS} (+ {@link #WOBBLE}) events/s: below
   * that rate every event is accepted, above it accepted/offered = worker/rate. A control half
   * ({@code workerPerS} null) accepts everything.
   */
  static HalfRun half(String arm, Double workerPerS) {
    List<Cell> cells = new ArrayList<>();
    int seq = 0;
    for (double rate : RATES) {
      for (int r = 0; r < WOBBLE.length; r++) {
        long offered = Math.round(rate * DURATION_S);
        double worker = workerPerS == null ? Double.POSITIVE_INFINITY : workerPerS + WOBBLE[r];
        double completedPerS = Math.min(rate, worker);
        CellBuilder b =
            Cell.builder()
                .arm(arm)
                .offeredPerS(rate)
                .repeat(r)
                .sequence(seq)
                .startedAt(T0.plusSeconds(20L * seq))
                .durationRequestedS(DURATION_S)
                .durationElapsedS(DURATION_S)
                .attempted(offered)
                .warmupSlotsSent(0L)
                .accepted(Math.round(completedPerS * DURATION_S))
                .unacknowledged(offered - Math.round(completedPerS * DURATION_S))
                .counterDeltas(CLEAN)
                .headroom(4.0);
        if (workerPerS != null) {
          b.auditCompleted(Math.round(completedPerS * DURATION_S))
              .auditCompletedPerS(completedPerS)
              .auditServiceMeanMs(1000.0 / worker)
              .auditBusyFraction(Math.min(1.0, rate / worker))
              .outstandingDelta(0L);
        }
        cells.add(b.build());
        seq++;
      }
    }
    return HalfRuns.half(identity(), arm, cells);
  }

  /** Treatment worker at {@code workerPerS}, control unlimited: separation above that rate. */
  static ExperimentReport experiment(double workerPerS) {
    try {
      return ExperimentReport.of(
          Combine.combine(half(ON, workerPerS), half(OFF, null)), VerdictConfig.defaults());
    } catch (CombineException e) {
      throw new AssertionError(e);
    }
  }

  /** Both arms accept everything: nothing separates them. */
  static ExperimentReport noSeparation() {
    try {
      return ExperimentReport.of(
          Combine.combine(half(ON, 10_000.0), half(OFF, null)), VerdictConfig.defaults());
    } catch (CombineException e) {
      throw new AssertionError(e);
    }
  }

  /** Only the treatment ran, and it stopped early: two reasons at once. */
  static ExperimentReport controlSkippedAndIncomplete() {
    HalfRun h = half(ON, 400.0);
    HalfRun stopped =
        new HalfRun(
            h.schemaVersion(),
            h.identity(),
            h.arm(),
            h.rig(),
            h.startedAt(),
            h.finishedAt(),
            false,
            "stopped by the test",
            // Stopped before its last cell: the verdict reads incompleteness from the cells.
            h.cells().subList(0, h.cells().size() - 1));
    return ExperimentReport.ofSingleArm(stopped, VerdictConfig.defaults());
  }
}
