package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellCounts;
import dev.ceiling.core.model.MetricRole;
import java.util.List;

/**
 * The rules that say whether a cell is a measurement at all, whatever the relay did: the relay's
 * window is the generator's, and the generator's counts balance. Part of {@link CellProblems#of}.
 */
final class MeasurementChecks {
  private MeasurementChecks() {}

  /**
   * Whether the relay's window is the generator's: each scrape fast enough, and the relay's
   * accepted count close to the generator's. Either failing excludes the cell, with its own reason.
   */
  static void windowAlignment(Cell c, List<CellProblem> out) {
    double limitS = CellProblems.SLOW_SCRAPE_FRACTION * c.durationRequestedS();
    Double startS = c.scrapeStartS();
    Double endS = c.scrapeEndS();
    if ((startS != null && startS > limitS) || (endS != null && endS > limitS)) {
      out.add(
          CellProblems.exclude(
              ProblemKind.SLOW_SCRAPE,
              "the metrics scrapes took "
                  + Fmt.num(startS == null ? 0 : startS)
                  + " s at the window's start and "
                  + Fmt.num(endS == null ? 0 : endS)
                  + " s at its end, more than "
                  // To the microsecond: 0.1 x 3 s is 0.30000000000000004 in a double.
                  + Fmt.num(Math.round(limitS * 1e6) / 1e6)
                  + " s ("
                  + Fmt.num(CellProblems.SLOW_SCRAPE_FRACTION * 100)
                  + "% of the window): the relay's counters cover a shifted window"));
    }
    Double relay = c.delta(MetricRole.EVENTS_ACCEPTED);
    if (relay != null) {
      double generator = c.acceptedInWindow();
      double tolerance =
          Math.max(
              CellProblems.ACCEPTED_TOLERANCE_EVENTS,
              CellProblems.ACCEPTED_TOLERANCE_FRACTION * Math.max(Math.abs(relay), generator));
      if (Math.abs(relay - generator) > tolerance) {
        out.add(
            CellProblems.exclude(
                ProblemKind.ACCEPTED_DISAGREES,
                "the relay's accepted counter moved by "
                    + Fmt.num(relay)
                    + " while the generator saw "
                    + c.acceptedInWindow()
                    + " accepted in the window (tolerance "
                    + Fmt.num(tolerance)
                    + "): they did not measure the same window"));
      }
    }
  }

  /**
   * The balance of the generator's counts, and no more accepted than offered. accepted/offered is
   * computed from accepted_in_window, which also counts answers to warm-up slots, so without its
   * bound a ratio above 1 would be evidence.
   */
  static void impossible(Cell c, List<CellProblem> out) {
    long answered = c.accepted() + c.rejected() + c.unacknowledged();
    if (answered != c.attempted()) {
      out.add(
          CellProblems.exclude(
              ProblemKind.IMPOSSIBLE_MEASUREMENT,
              "accepted + rejected + unacknowledged = "
                  + c.accepted()
                  + " + "
                  + c.rejected()
                  + " + "
                  + c.unacknowledged()
                  + " = "
                  + answered
                  + ", but "
                  + c.attempted()
                  + " events were attempted: every sent event is accepted, rejected or"
                  + " unanswered, so the counts are broken"));
    }
    Long warmup = c.warmupSlotsSent();
    if (warmup == null) {
      out.add(
          CellProblems.exclude(
              ProblemKind.IN_WINDOW_UNBOUNDED,
              "the warm-up slots sent were not recorded (a schema version 1 file), so"
                  + " accepted_in_window "
                  + c.acceptedInWindow()
                  + " cannot be bounded by the events sent: not evidence"));
    } else if (c.acceptedInWindow() > c.attempted() + warmup) {
      out.add(
          CellProblems.exclude(
              ProblemKind.IMPOSSIBLE_MEASUREMENT,
              "accepted_in_window "
                  + c.acceptedInWindow()
                  + " exceeds the events sent ("
                  + c.attempted()
                  + " attempted + "
                  + warmup
                  + " warm-up slots): accepted/offered "
                  + Fmt.stat(c.acceptedOverOffered())
                  + " is not a measurement"));
    }
    CellCounts k = c.counts();
    if (k.hasWindowCounts()
        && (k.acceptedInWindowFirstHalf() + k.acceptedInWindowSecondHalf() != c.acceptedInWindow()
            || k.acceptedInWindowOwnSlots() > c.acceptedInWindow())) {
      out.add(
          CellProblems.exclude(
              ProblemKind.IMPOSSIBLE_MEASUREMENT,
              "the window's halves ("
                  + k.acceptedInWindowFirstHalf()
                  + " + "
                  + k.acceptedInWindowSecondHalf()
                  + ") must add up to accepted_in_window "
                  + c.acceptedInWindow()
                  + ", and its answers to its own slots ("
                  + k.acceptedInWindowOwnSlots()
                  + ") cannot exceed it: the counts are broken"));
    }
    // The generator sends at most ceil(offered x duration) events; more accepted is impossible.
    double maxEvents = Math.ceil(c.offeredEvents() - 1e-9);
    if (c.accepted() > maxEvents) {
      out.add(
          CellProblems.exclude(
              ProblemKind.IMPOSSIBLE_MEASUREMENT,
              c.accepted()
                  + " events accepted but at most "
                  + Fmt.num(maxEvents)
                  + " were offered: the instrument is broken"));
    }
  }
}
