package dev.ceiling.experiment;

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
public record SensitivityPoint(
    double addedDelayMs,
    int cellsMeasured,
    int cellsUsed,
    Double meanCeilingPerS,
    Double meanMsPerEvent,
    Double wireTurnsPerEvent,
    Double meanReleaseLatenessMs,
    Double realizedDelayMs) {}
