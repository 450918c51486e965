package dev.ceiling.verdict;

import java.util.Objects;

/**
 * The delay sweep's line 1 / C(d) = k d + c, fitted by weighted least squares over every repeat,
 * with its lack-of-fit test. With 1 / C in ms per event and d in ms, the slope k is in ms per ms:
 * the number of sequential round trips per event on the swept link. The intercept c is the
 * per-event service time at zero added delay.
 *
 * @param points repeats fitted
 * @param delays distinct delays among them
 * @param roundTripsPerEvent k with its two-sided t interval on points - 2 df
 * @param interceptMsPerEvent c, ms per event, with its interval on the same df
 * @param residualSdMsPerEvent the residual standard deviation per unit weight, ms per event
 * @param lackOfFit the line against the pure error of the repeats
 * @param established true only when the lack-of-fit test ran and did not reject the line, and the
 *     residual scatter is not exactly zero: k means "round trips" only where the line holds
 * @param message the fit in one line
 */
public record SensitivityFit(
    int points,
    int delays,
    Estimate roundTripsPerEvent,
    Estimate interceptMsPerEvent,
    double residualSdMsPerEvent,
    LackOfFit lackOfFit,
    boolean established,
    String message) {
  public SensitivityFit {
    Objects.requireNonNull(roundTripsPerEvent, "round_trips_per_event must not be null");
    Objects.requireNonNull(interceptMsPerEvent, "intercept_ms_per_event must not be null");
    Objects.requireNonNull(lackOfFit, "lack_of_fit must not be null");
    Objects.requireNonNull(message, "message must not be null");
    if (established && lackOfFit.status() != LackOfFit.Status.NOT_REJECTED) {
      throw new IllegalArgumentException(
          "established needs a lack-of-fit test that did not reject, got " + lackOfFit.status());
    }
  }
}
