package dev.ceiling.verdict;

/**
 * How far one delay's repeats sit from the fitted line, for naming the points that depart from it.
 *
 * @param addedDelayMs the delay, ms
 * @param repeats the points at this delay
 * @param meanMsPerEvent the weighted mean of their 1 / ceiling, ms per event
 * @param fittedMsPerEvent the line's value at this delay, ms per event
 * @param standardized (mean - fitted) / its standard error, the error estimated from the pure error
 *     of the repeats alone (so a line bent by a plateau does not hide its own departure); a t
 *     statistic on the pure error's degrees of freedom when the line holds. Null when there is no
 *     pure error to standardize with.
 */
public record LevelDeparture(
    double addedDelayMs,
    int repeats,
    double meanMsPerEvent,
    double fittedMsPerEvent,
    Double standardized) {}
