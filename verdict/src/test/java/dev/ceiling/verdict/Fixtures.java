package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.HalfRuns;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Builders for identities, cells and half-runs used across the verdict's tests, on the shared
 * {@link HalfRuns} (core's test jar, also used by the junit and cli tests).
 */
final class Fixtures {
  static final String ON = HalfRuns.ON;
  static final String OFF = HalfRuns.OFF;
  static final double DURATION_S = 10.0;
  static final int CAPACITY = HalfRuns.CAPACITY;
  static final Instant T0 = HalfRuns.T0;

  /** Every contamination counter exposed and zero. */
  static final Map<String, Double> CLEAN_COUNTERS = HalfRuns.CLEAN_COUNTERS;

  private Fixtures() {}

  static ExperimentIdentity identity(List<Double> rates, int repeats) {
    return identity(rates, repeats, DURATION_S);
  }

  static ExperimentIdentity identity(List<Double> rates, int repeats, double durationS) {
    return HalfRuns.identity(rates, repeats, durationS);
  }

  static RigDescriptor rig(String arm) {
    return HalfRuns.rig(arm);
  }

  /** A rig that ran with this queue capacity and these limiter settings. */
  static RigDescriptor rig(String arm, Integer capacity, Map<String, String> limiter) {
    return HalfRuns.rig(arm, capacity, limiter);
  }

  /**
   * A clean evidence cell whose accepted/offered is {@code ratio} (rounded to whole events). A
   * treatment cell gets a steady, busy audit path completing at {@code min(rate, 400)}/s; a control
   * cell has no queue.
   */
  static Cell cell(String arm, double rate, int repeat, int sequence, double ratio) {
    CellBuilder b = HalfRuns.cell(arm, rate, repeat, sequence, DURATION_S, ratio);
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
    return HalfRuns.half(id, arm, cells);
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
