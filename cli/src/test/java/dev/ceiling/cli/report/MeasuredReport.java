package dev.ceiling.cli.report;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.verdict.ExperimentReport;
import org.HdrHistogram.Histogram;

/** A report like a measured one, for the pages' chart tests. */
final class MeasuredReport {
  private MeasuredReport() {}

  /**
   * A report whose cells carry latency histograms and busy fractions (the model report has
   * neither): two arms, three rates, three repeats, each cell's latencies a long-tailed synthetic
   * distribution of 2,000 values that grows with the rate and differs per repeat.
   */
  static ExperimentReport report() throws Exception {
    return AnswerTest.report(
        HalfRuns.half(
            AnswerTest.ID,
            HalfRuns.ON,
            AnswerTest.cells(HalfRuns.ON, AnswerTest.FALLS, MeasuredReport::measured)),
        HalfRuns.half(
            AnswerTest.ID,
            HalfRuns.OFF,
            AnswerTest.cells(HalfRuns.OFF, AnswerTest.FLAT, MeasuredReport::measured)));
  }

  static CellBuilder measured(CellBuilder b) {
    Cell c = b.build();
    double baseUs =
        400
            * c.offeredPerS()
            / 100
            * (1 + 0.15 * c.repeat())
            * (c.arm().equals(HalfRuns.ON) ? 2 : 1);
    return b.scheduled(summary(baseUs * 1.5))
        .service(summary(baseUs))
        .auditBusyFraction(Math.min(1, c.offeredPerS() / 300 * (0.8 + 0.07 * c.repeat())));
  }

  static LatencySummary summary(double baseUs) {
    Histogram h = LatencySummary.newHistogram();
    for (int i = 0; i < 2000; i++) {
      h.recordValue(Math.round(baseUs * (1 + 20 * Math.pow(i / 2000.0, 8))));
    }
    return LatencySummary.of(h);
  }
}
