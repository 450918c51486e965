package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The lack-of-fit F test of a straight line against the pure error of the repeats: F = (SSE -
 * SS_pure) / (delays - 2) over SS_pure / (points - delays), all sums weighted. A line that holds
 * leaves no more scatter between a delay's mean and the line than the repeats show among
 * themselves.
 *
 * @param status the outcome
 * @param f the F statistic, or null when untestable
 * @param dfLackOfFit delays - 2, or null when untestable
 * @param dfPureError points - delays, or null when untestable
 * @param pValue P(F(dfLackOfFit, dfPureError) &gt;= f), or null when untestable
 * @param alpha the test's level, in (0, 0.5]
 * @param levels every delay's departure, in delay order
 * @param departing when REJECTED, the delays whose |standardized| departure exceeds the Bonferroni
 *     two-sided critical value t(1 - alpha / (2 delays); dfPureError), largest first, or the single
 *     largest when none does; empty otherwise
 * @param untestableReason why the test could not run, or null when it ran
 */
public record LackOfFit(
    Status status,
    Double f,
    Integer dfLackOfFit,
    Integer dfPureError,
    Double pValue,
    double alpha,
    List<LevelDeparture> levels,
    List<LevelDeparture> departing,
    String untestableReason) {

  /** The outcome of the test. */
  public enum Status {
    /** The line is not rejected at alpha: the model holds as far as these repeats can tell. */
    NOT_REJECTED,
    /** The line is rejected at alpha: some delays depart from it beyond their pure error. */
    REJECTED,
    /** Fewer than 3 delays, no repeats, or repeats with exactly no scatter. */
    UNTESTABLE
  }

  public LackOfFit {
    Objects.requireNonNull(status, "status must not be null");
    levels = List.copyOf(levels);
    departing = List.copyOf(departing);
    boolean ran = status != Status.UNTESTABLE;
    if (ran != (f != null)
        || ran != (dfLackOfFit != null)
        || ran != (dfPureError != null)
        || ran != (pValue != null)
        || ran == (untestableReason != null)) {
      throw new IllegalArgumentException(
          "test figures must be null exactly when UNTESTABLE, got status=" + status);
    }
    if ((status == Status.REJECTED) == departing.isEmpty()) {
      throw new IllegalArgumentException(
          "departing must be non-empty exactly when REJECTED, got status=" + status);
    }
  }

  /** "F = 1.2 on 4 and 12 df, p = 0.34" or the reason it did not run. */
  String inWords() {
    if (status == Status.UNTESTABLE) {
      return "lack of fit not testable: " + untestableReason;
    }
    return "lack of fit F = "
        + Fmt.stat(f)
        + " on "
        + dfLackOfFit
        + " and "
        + dfPureError
        + " df, p = "
        + Fmt.p(pValue);
  }
}
