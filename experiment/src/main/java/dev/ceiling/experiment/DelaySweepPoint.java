package dev.ceiling.experiment;

import dev.ceiling.rig.proxy.LinkCounters;
import java.util.List;

/**
 * One delay of a delay sweep, summed over its repeats.
 *
 * @param addedDelayMs the delay, ms
 * @param cellsMeasured cells measured at this delay
 * @param cellsUsed cells whose worker completion rate is a point of the fit
 * @param meanCeilingPerS the mean worker completion rate of the cells used, events/s, or null when
 *     none was used
 * @param meanMsPerEvent the mean of their 1000 / rate, ms per event (what the fit models), or null
 * @param wireTurnsPerEvent wire turns over audit entries, both summed over the cells used, or null
 *     when they completed no entry
 * @param meanReleaseLatenessMs the proxy's mean lateness per released chunk over those cells (its
 *     timer's wake floor), ms, or null when nothing was held
 * @param realizedDelayMs the round-trip delay the proxy actually added: the planned delay plus its
 *     mean lateness once each way, ms; the fit's x. Null when no cell was used
 */
public record DelaySweepPoint(
    double addedDelayMs,
    int cellsMeasured,
    int cellsUsed,
    Double meanCeilingPerS,
    Double meanMsPerEvent,
    Double wireTurnsPerEvent,
    Double meanReleaseLatenessMs,
    Double realizedDelayMs) {
  /**
   * The fit's x for a planned delay: what the proxy really added. Every held chunk leaves when its
   * timer fires, a little after it is due (the machine's wake floor, 0.2 to 0.6 ms per chunk at a
   * load of 8 and growing with the hold), while at d = 0 nothing is held; an exchange waits for
   * that lateness once each way. Fitting on the planned d would count it as round trips. The
   * planned delay where no cell used measured it.
   */
  public static double fitX(List<DelaySweepPoint> points, double plannedMs) {
    return points.stream()
        .filter(p -> p.addedDelayMs() == plannedMs && p.realizedDelayMs() != null)
        .mapToDouble(DelaySweepPoint::realizedDelayMs)
        .findFirst()
        .orElse(plannedMs);
  }

  /**
   * The round-trip delay a link really added over {@code links} (the cells' counters) at a planned
   * {@code plannedMs}: planned plus the mean release lateness once each way, ms, as every point's x
   * is placed.
   */
  static double realizedMs(double plannedMs, List<LinkCounters> links) {
    long chunks = links.stream().mapToLong(LinkCounters::releasedChunks).sum();
    long late = links.stream().mapToLong(LinkCounters::releaseLatenessNanos).sum();
    return plannedMs + (chunks == 0 ? 0 : 2 * late / 1e6 / chunks);
  }
}
