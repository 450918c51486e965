package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import java.util.Objects;

/**
 * What one of the delay sweep's two lines predicts at a delay the user names (a link's round-trip
 * time in production, which loopback does not have), and, when cells were measured there and left
 * out of the fit (the holdout), whether the measurement fell inside the prediction. A prediction
 * nobody checked is a guess: the holdout is what lets a design review trust the extrapolation, and
 * a holdout placed where the line does not hold (a CPU plateau, a pool that saturates) reads
 * OUTSIDE.
 *
 * <p>The interval is a prediction interval for the mean of the holdout's repeats (the line's
 * uncertainty at that delay plus the holdout's own scatter, t on the fit's points - 2 df); without
 * a holdout it is the confidence interval of the line itself at that delay (how much a faster or
 * slower link moves the ceiling on average), offered only inside the swept range, where no
 * extrapolation is needed.
 *
 * @param line which line: the ceiling (events/s, fitted as 1 / C) or the OK latency (ms)
 * @param atDelayMs the named delay, ms, finite and &gt;= 0
 * @param predicted the line's value there: a ceiling in events/s or a latency in ms
 * @param lower the interval's lower end, same unit
 * @param upper the interval's upper end, same unit; null when the ceiling's interval reaches a
 *     per-event time of zero (the line cannot bound the ceiling from above there)
 * @param level the interval's two-sided level, in (0, 1)
 * @param holdoutRepeats repeats measured at {@code atDelayMs} and left out of the fit, &gt;= 0
 * @param measured their mean (a ceiling from their mean per-event time, or a mean latency), or null
 *     without a holdout
 * @param placement where the measurement fell
 * @param message the prediction and the check in one line
 */
public record WhatIf(
    Line line,
    double atDelayMs,
    double predicted,
    double lower,
    Double upper,
    double level,
    int holdoutRepeats,
    Double measured,
    Placement placement,
    String message) {

  /** Which of the delay sweep's two lines. */
  public enum Line {
    CEILING,
    LATENCY
  }

  /** Where the holdout's measurement fell against the prediction interval. */
  public enum Placement {
    /** Inside the prediction interval: the line holds out to this delay. */
    INSIDE,
    /**
     * Outside it: the line does not hold out to this delay, and the prediction must not be used.
     */
    OUTSIDE,
    /** No holdout was measured: the figure is the line's, checked by nothing. */
    NOT_CHECKED
  }

  public WhatIf {
    Objects.requireNonNull(line, "line must not be null");
    Objects.requireNonNull(placement, "placement must not be null");
    Objects.requireNonNull(message, "message must not be null");
    new Checks()
        .nonNegativeFinite("at_delay_ms", atDelayMs)
        .require(Double.isFinite(predicted), "predicted must be finite, got " + predicted)
        .require(
            lower <= predicted && (upper == null || predicted <= upper),
            "lower <= predicted <= upper must hold, got "
                + lower
                + " <= "
                + predicted
                + " <= "
                + upper)
        .require(level > 0 && level < 1, "level must be in (0, 1), got " + level)
        .nonNegative("holdout_repeats", holdoutRepeats)
        .require(
            (holdoutRepeats == 0) == (measured == null),
            "measured must be given exactly when holdout repeats were measured")
        .require(
            (holdoutRepeats == 0) == (placement == Placement.NOT_CHECKED),
            "placement is NOT_CHECKED exactly when no holdout was measured, got "
                + placement
                + " with "
                + holdoutRepeats
                + " holdout repeats")
        .orThrow();
  }
}
