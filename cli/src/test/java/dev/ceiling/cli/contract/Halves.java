package dev.ceiling.cli.contract;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.HalfRuns;
import java.util.ArrayList;
import java.util.List;

/**
 * Half-runs written as a user's files would be, with accepted/offered chosen per cell: the input of
 * the doctored-file tests of report and combine, on the shared {@link HalfRuns}. Every cell is
 * clean, planned and balanced, so what decides is the thresholds.
 */
final class Halves {
  static final String ON = HalfRuns.ON;
  static final String OFF = HalfRuns.OFF;
  static final double DURATION_S = 10.0;

  private Halves() {}

  static ExperimentIdentity identity(List<Double> rates, int repeats) {
    return HalfRuns.identity(rates, repeats, DURATION_S);
  }

  /** A half whose cell at rate i, repeat r has accepted/offered {@code ratios[i][r]}. */
  static HalfRun half(ExperimentIdentity id, String arm, double[][] ratios) {
    List<Cell> cells = new ArrayList<>();
    int seq = 0;
    for (int i = 0; i < id.ratesPerS().size(); i++) {
      for (int r = 0; r < ratios[i].length; r++) {
        cells.add(
            HalfRuns.cell(arm, id.ratesPerS().get(i), r, seq++, DURATION_S, ratios[i][r]).build());
      }
    }
    return HalfRuns.half(id, arm, cells);
  }
}
