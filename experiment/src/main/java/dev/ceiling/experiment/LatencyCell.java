package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.ClientSteady;
import dev.ceiling.verdict.VerdictConfig;
import java.util.Objects;

/**
 * The latency cell of one planned cell of a delay sweep: at the plan's latency offer, well below
 * the ceiling, at the planned cell's delay, measured right before its saturating cell. Its OK
 * latency (from the intended slot, as the generator records it) is a point of the latency slope;
 * what crossed the link over it gives turns and bytes each way per OK-true answer.
 *
 * @param cell the cell as measured (one window at the latency offer)
 * @param link what crossed the swept link from just before this cell to the end of its grace period
 * @param used true when its OK latency is a point of the latency slope
 * @param notUsed why not, in words, or null when used
 * @param okLatencyMedianMs the median of the window's OK latencies from the intended slot, ms; null
 *     when the window's answers are not all OK true (the generator's histogram holds every answer)
 * @param okLatencyMeanMs their mean, ms, beside the median (a tail shows as the two apart); or null
 * @param okTrueAnswers OK-true answers over the span {@code link} covers (as {@link
 *     DelaySweepAnalysis#okTrueAnswers}), or null when the cell's counts cannot show them all
 * @param turnsPerOkTrue wire turns per OK-true answer over that span, or null
 * @param bytesToTargetPerOkTrue bytes the relay sent on the link per OK-true answer, or null
 * @param bytesToRelayPerOkTrue bytes the link's service sent back per OK-true answer, or null
 */
public record LatencyCell(
    Cell cell,
    LinkCounters link,
    boolean used,
    String notUsed,
    Double okLatencyMedianMs,
    Double okLatencyMeanMs,
    Double okTrueAnswers,
    Double turnsPerOkTrue,
    Double bytesToTargetPerOkTrue,
    Double bytesToRelayPerOkTrue) {

  public LatencyCell {
    Objects.requireNonNull(cell, "cell must not be null");
    Objects.requireNonNull(link, "link must not be null");
    if (used && (notUsed != null || okLatencyMedianMs == null)) {
      throw new IllegalArgumentException(
          "a used latency cell has a median OK latency and no reason against it");
    }
    if (!used && notUsed == null) {
      throw new IllegalArgumentException("a latency cell not used must say why");
    }
  }

  /**
   * Judges a measured latency cell. Its OK latency is a point when every answer in the window was
   * OK true (the generator's scheduled histogram holds refusals too), none was left unanswered, the
   * generator kept its schedule, and the cell was not saturated from the client: a saturated cell's
   * latency holds the queue's wait, which grows with the backlog, not with the link's round trips
   * alone.
   */
  static LatencyCell of(Cell cell, LinkCounters link, VerdictConfig cfg) {
    LatencySummary scheduled = cell.scheduled();
    boolean allOk = cell.rejected() == 0 && cell.unacknowledged() == 0;
    Double median = allOk && scheduled.count() > 0 ? scheduled.p50Ms() : null;
    Double mean = allOk && scheduled.count() > 0 ? scheduled.histogram().getMean() / 1000.0 : null;
    ClientSteady.Reading reading = ClientSteady.read(cell, cfg);
    String notUsed = null;
    if (cell.rejected() != 0) {
      notUsed = "refused answers in the window (" + cell.rejected() + ")";
    } else if (cell.unacknowledged() != 0) {
      notUsed = "unanswered slots at the grace period's end (" + cell.unacknowledged() + ")";
    } else if (scheduled.count() == 0) {
      notUsed = "no OK answer in the window";
    } else if (cell.generatorBound()) {
      notUsed = "generator-bound: the intended slots were not kept";
    } else if (reading != null && reading.saturated()) {
      notUsed = "saturated from the client: the latency offer is not well below the ceiling";
    }
    Double okTrue = DelaySweepAnalysis.okTrueAnswers(cell);
    boolean answers = okTrue != null && okTrue > 0;
    return new LatencyCell(
        cell,
        link,
        notUsed == null,
        notUsed,
        median,
        mean,
        okTrue,
        answers ? link.turns() / okTrue : null,
        answers ? link.bytesToTarget() / okTrue : null,
        answers ? link.bytesToClient() / okTrue : null);
  }
}
