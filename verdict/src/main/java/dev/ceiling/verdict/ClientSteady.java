package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The steady state and the ceiling read from the client alone, for a relay with no queue gauge or
 * worker metric (and beside them as a cross-check): the generator's OK-true answers in each half of
 * the window, its OK-false answers in each half (where the cell recorded them), and its outstanding
 * count (slots sent minus slots answered, OK true or false) at the window's start, middle and end.
 * Pure.
 *
 * <p>A cell is steady from the client when all of these hold, each within {@link #toleranceEvents}
 * events:
 *
 * <ol>
 *   <li>the halves agree: the OK-true answers of the first and of the second half differ by no more
 *       than the tolerance, and so do the OK-false answers (a limiter that starts refusing halfway
 *       through the window is not in its steady state);
 *   <li>the outstanding count never fell: in neither half did it shrink by more than the tolerance
 *       (a shrinking count is the relay answering an earlier backlog faster than the offer, which
 *       is exactly the warm-up's backlog landing in the window);
 *   <li>it grew at one rate: its growth in the two halves differs by no more than the tolerance
 *       (flat in both when not saturated, the same growth in both when saturated);
 *   <li>it grew at offered minus answered: in each half its growth is the half's offered events
 *       minus the half's OK-true and OK-false answers.
 * </ol>
 *
 * A cell written before the OK-false halves were recorded reads them as none: its check is the
 * OK-true one it always had, which a relay refusing with OK false fails by construction.
 *
 * <p>The cell is saturated when the count grew over the whole window by more than the tolerance.
 */
public final class ClientSteady {
  private ClientSteady() {}

  /**
   * The tolerance's floor, events: at small offers a fraction of the window is a few events, and
   * the answers in flight at the middle instant alone move a half's count by about that many.
   */
  public static final long FLOOR_EVENTS = 10;

  /**
   * One cell's client-side reading.
   *
   * @param toleranceEvents max(steady tolerance x the window's offered events, {@link
   *     #FLOOR_EVENTS})
   * @param firstHalf OK-true answers that arrived in the first half
   * @param secondHalf those in the second half
   * @param growthFirstHalf the outstanding count's change over the first half
   * @param growthSecondHalf its change over the second half
   * @param offeredPerHalf offered events in one half (offered rate x half the requested duration)
   * @param saturated true when the outstanding count grew over the window by more than the
   *     tolerance
   * @param failures each rule the cell broke, in words naming its figures; empty when steady
   */
  public record Reading(
      double toleranceEvents,
      long firstHalf,
      long secondHalf,
      long growthFirstHalf,
      long growthSecondHalf,
      double offeredPerHalf,
      boolean saturated,
      List<String> failures) {
    public Reading {
      failures = List.copyOf(Objects.requireNonNull(failures, "failures must not be null"));
      if (!(toleranceEvents > 0)) {
        throw new IllegalArgumentException("tolerance_events must be > 0, got " + toleranceEvents);
      }
    }

    /** True when every rule held. */
    public boolean steady() {
      return failures.isEmpty();
    }
  }

  /** The tolerance for {@code c}, events: see {@link Reading#toleranceEvents()}. */
  public static double toleranceEvents(Cell c, VerdictConfig cfg) {
    return Math.max(cfg.steadyTolerance() * c.offeredEvents(), FLOOR_EVENTS);
  }

  /**
   * The reading of {@code c}.
   *
   * @return null when the cell did not record its window counts (written before they were)
   */
  public static Reading read(Cell c, VerdictConfig cfg) {
    Objects.requireNonNull(c, "cell");
    Objects.requireNonNull(cfg, "config");
    CellCounts k = c.counts();
    if (!k.hasWindowCounts()) {
      return null;
    }
    double tol = toleranceEvents(c, cfg);
    long a1 = k.acceptedInWindowFirstHalf();
    long a2 = k.acceptedInWindowSecondHalf();
    long r1 = k.hasRejectedHalves() ? k.rejectedInWindowFirstHalf() : 0;
    long r2 = k.hasRejectedHalves() ? k.rejectedInWindowSecondHalf() : 0;
    long start = k.outstandingAtWindowStart();
    long mid = k.outstandingAtWindowMid();
    long end = k.outstandingAtWindowEnd();
    long g1 = mid - start;
    long g2 = end - mid;
    double half = c.offeredEvents() / 2;
    String within = " (tolerance " + Fmt.num(tol) + " events)";
    List<String> failures = new ArrayList<>();
    if (Math.abs(a1 - a2) > tol) {
      failures.add(
          "the window's halves disagree: "
              + a1
              + " OK-true answers in the first half, "
              + a2
              + " in the second"
              + within);
    }
    if (Math.abs(r1 - r2) > tol) {
      failures.add(
          "the window's halves disagree: "
              + r1
              + " OK-false answers in the first half, "
              + r2
              + " in the second"
              + within);
    }
    if (g1 < -tol || g2 < -tol) {
      failures.add(
          "the outstanding count fell ("
              + start
              + " at the window's start, "
              + mid
              + " at its middle, "
              + end
              + " at its end): answers to an earlier backlog landed in the window"
              + within);
    } else if (Math.abs(g1 - g2) > tol) {
      failures.add(
          "the outstanding count grew by "
              + g1
              + " in the first half and "
              + g2
              + " in the second: neither flat nor growing at one rate"
              + within);
    }
    for (int h = 0; h < 2; h++) {
      long g = h == 0 ? g1 : g2;
      long a = h == 0 ? a1 : a2;
      long r = h == 0 ? r1 : r2;
      double expected = half - a - r;
      if (Math.abs(g - expected) > tol) {
        failures.add(
            "the outstanding count grew by "
                + g
                + " in the "
                + (h == 0 ? "first" : "second")
                + " half where offered minus answered is "
                + Fmt.num(expected)
                + within);
      }
    }
    return new Reading(tol, a1, a2, g1, g2, half, end - start > tol, failures);
  }

  /**
   * The client-side ceiling of {@code c}: its accepted rate ({@link Cell#acceptedPerS()}, built
   * from the credited in-window count) when the cell is steady and saturated by this reading, so
   * the offer was above what the relay answered.
   *
   * @return events/s, or null when the cell is not steady, not saturated, or has no window counts
   */
  public static Double ceilingPerS(Cell c, VerdictConfig cfg) {
    Reading r = read(c, cfg);
    return r != null && r.steady() && r.saturated() ? c.acceptedPerS() : null;
  }
}
