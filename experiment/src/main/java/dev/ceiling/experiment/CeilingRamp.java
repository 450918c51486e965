package dev.ceiling.experiment;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.ClientSteady;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The ramp that finds a relay's ceiling from the client when the relay predicts none: short cells
 * at rising offers, by a rule fixed before the first of them, until the OK-true answered rate stops
 * following the offer. Its ceiling then places a round's offers exactly as a predicted one does
 * ({@link AutoRates.Range}). Pure: the offers, the stop rule and the ceiling are functions of the
 * rule and the steps; {@link RampMeasure} measures the steps, and a reader of a round's file
 * applies the rule again to the stored steps (the constructor refuses a ceiling they do not give).
 *
 * @param rule the rule, fixed before the first step
 * @param steps the measured steps, in the order they ran
 * @param ceilingPerS the highest answered rate a readable step sustained up to the step the ramp
 *     stopped at (the first saturated or collapsed one), events/s, or null when none stopped it
 *     (the ramp reached its maximum, or was stopped early)
 */
public record CeilingRamp(Rule rule, List<Step> steps, Double ceilingPerS) {

  /**
   * How far below what the ramp's steps sustained a step it cannot read must answer for the ramp to
   * stop there as at a collapse: fewer OK-true answers in its window than half the highest rate a
   * step below it sustained. The ramp doubles its offer, so a relay that holds its ceiling under
   * overload answers at least that rate at the next step (less its counting noise, under the 10%
   * tolerance); a step that cannot be read because its halves disagree (a backlog, the relay
   * settling) but answered more than half of it may be a relay at its ceiling and the ramp goes on.
   * Answering less than half is five times the tolerance below it: not noise but a relay that
   * stopped answering (nostream on its Redis link: 200/s followed, then fewer than 10 answers a
   * window at every offer from 800/s to 12,800/s), and every further step only adds load to it.
   */
  public static final double COLLAPSE_FRACTION = 0.5;

  /**
   * The ramp's rule.
   *
   * @param startPerS the first offer, events/s, &gt; 0
   * @param factor each offer over the one before, &gt; 1
   * @param tolerance how far below its offer a step's answered rate may fall and still follow it,
   *     in (0, 1): a step is saturated when it answered less than (1 - tolerance) x its offer
   * @param maxPerS the largest offer, events/s, &gt;= the first; the last step is offered it when
   *     the geometric series steps over it
   * @param windowS each step's measurement window, s, &gt; 0 (after the round's warm-up)
   */
  public record Rule(
      double startPerS, double factor, double tolerance, double maxPerS, double windowS) {
    public Rule {
      Checks checks =
          new Checks()
              .positiveFinite("ramp.start_per_s", startPerS)
              .positiveFinite("ramp.max_per_s", maxPerS)
              .positiveFinite("ramp.window_s", windowS);
      checks.require(
          factor > 1 && Double.isFinite(factor),
          "ramp.factor must be finite and > 1, got " + factor);
      checks.require(
          tolerance > 0 && tolerance < 1, "ramp.tolerance must be in (0, 1), got " + tolerance);
      checks.require(
          !(maxPerS < startPerS),
          "ramp.max_per_s must be >= ramp.start_per_s (" + startPerS + "), got " + maxPerS);
      checks.orThrow();
    }

    /**
     * The offers in order, events/s: start x factor^i, rounded, up to and ending at the maximum.
     */
    public List<Double> offers() {
      List<Double> out = new ArrayList<>();
      double x = startPerS;
      while (true) {
        double offer = Math.min(maxPerS, (double) Math.max(1, Math.round(x)));
        if (out.isEmpty() || offer > out.get(out.size() - 1)) {
          out.add(offer);
        }
        if (offer >= maxPerS) {
          return out;
        }
        x *= factor;
      }
    }

    /** What this rule makes of one step. */
    public Reading read(Step s) {
      Objects.requireNonNull(s, "step");
      if (s.excluded() != null) {
        return new Reading(Reading.Kind.NOT_READABLE, "not readable: " + s.excluded());
      }
      double offered = s.offeredPerS() * s.windowS();
      double tol = Math.max(tolerance * offered, ClientSteady.FLOOR_EVENTS);
      // A generator that lagged but sent the window's slots still offered them (its lateness is
      // the machine's, beside two busy loops it is the rule); one that could not send them did
      // not, and an answered rate below such an offer says nothing about the relay.
      if (s.slotsSent() < offered - tol) {
        return new Reading(
            Reading.Kind.NOT_READABLE,
            String.format(
                Locale.ROOT,
                "not readable: the generator sent %d of the window's %.0f slots",
                s.slotsSent(),
                offered));
      }
      // A rate read from fewer answers than the halves' own floor is noise; none at all is a relay
      // that did not answer in the window (stalled, or still starting), not one at its ceiling.
      if (s.okTrueFirstHalf() + s.okTrueSecondHalf() < ClientSteady.FLOOR_EVENTS) {
        return new Reading(
            Reading.Kind.NOT_READABLE,
            String.format(
                Locale.ROOT,
                "not readable: %d OK-true answers in the window, fewer than %d",
                s.okTrueFirstHalf() + s.okTrueSecondHalf(),
                ClientSteady.FLOOR_EVENTS));
      }
      if (Math.abs(s.okTrueFirstHalf() - s.okTrueSecondHalf()) > tol) {
        return new Reading(
            Reading.Kind.NOT_READABLE,
            String.format(
                Locale.ROOT,
                "not readable: the window's halves disagree (%d and %d OK-true answers,"
                    + " tolerance %.1f)",
                s.okTrueFirstHalf(),
                s.okTrueSecondHalf(),
                tol));
      }
      if (s.answeredPerS() < (1 - tolerance) * s.offeredPerS()) {
        return new Reading(
            Reading.Kind.SATURATED,
            String.format(
                Locale.ROOT,
                "saturated: %.1f/s answered OK true, below (1 - %s) x the %.0f/s offered",
                s.answeredPerS(),
                tolerance,
                s.offeredPerS()));
      }
      return new Reading(
          Reading.Kind.FOLLOWS,
          String.format(
              Locale.ROOT,
              "follows: %.1f/s answered OK true of %.0f/s offered",
              s.answeredPerS(),
              s.offeredPerS()));
    }

    /**
     * What this rule makes of {@code steps.get(i)} in its ramp: {@link #read(Step)}, except that a
     * step it cannot read, whose generator sent the window's slots, is a {@linkplain
     * Reading.Kind#COLLAPSED collapse} when fewer OK-true answers than {@link
     * CeilingRamp#COLLAPSE_FRACTION} x the highest rate a step before it sustained arrived in its
     * window, or when it and the step before it each got fewer than the floor of answers (a relay
     * that answers almost nothing at two offers in a row, the second twice the first, is not still
     * starting: it is not keeping up, and higher offers only add load).
     */
    public Reading read(List<Step> steps, int i) {
      return read(steps, i, true);
    }

    /** As {@link #read(List, int)}; {@code collapses} false reads as the ramp before the rule. */
    Reading read(List<Step> steps, int i, boolean collapses) {
      Reading r = read(steps.get(i));
      Step s = steps.get(i);
      if (!collapses
          || r.kind() != Reading.Kind.NOT_READABLE
          || s.excluded() != null
          || !sentItsSlots(s)) {
        return r;
      }
      double sustained = 0;
      for (int j = 0; j < i; j++) {
        if (read(steps.get(j)).readable()) {
          sustained = Math.max(sustained, steps.get(j).answeredPerS());
        }
      }
      long answers = answers(s);
      double inWindowPerS = answers / s.windowS();
      if (inWindowPerS < COLLAPSE_FRACTION * sustained) {
        return new Reading(
            Reading.Kind.COLLAPSED,
            String.format(
                Locale.ROOT,
                "collapsed: %d OK-true answers in the %s s window (%.1f/s), fewer than %s x the"
                    + " %.1f/s a step below sustained (%s)",
                answers,
                s.windowS(),
                inWindowPerS,
                COLLAPSE_FRACTION,
                sustained,
                r.why()));
      }
      if (i > 0 && silent(steps.get(i - 1)) && silent(s)) {
        return new Reading(
            Reading.Kind.COLLAPSED,
            String.format(
                Locale.ROOT,
                "collapsed: %d OK-true answers in the window and %d in the step before's, each"
                    + " fewer than %d",
                answers,
                answers(steps.get(i - 1)),
                ClientSteady.FLOOR_EVENTS));
      }
      return r;
    }

    private static long answers(Step s) {
      return s.okTrueFirstHalf() + s.okTrueSecondHalf();
    }

    /** A step whose slots were sent and that got fewer OK-true answers than the floor. */
    private boolean silent(Step s) {
      return s.excluded() == null && sentItsSlots(s) && answers(s) < ClientSteady.FLOOR_EVENTS;
    }

    /** Whether the generator put the step's window's slots on the wire, within the tolerance. */
    private boolean sentItsSlots(Step s) {
      double offered = s.offeredPerS() * s.windowS();
      return !(s.slotsSent() < offered - Math.max(tolerance * offered, ClientSteady.FLOOR_EVENTS));
    }

    /**
     * The index of the step the ramp stops at (the first saturated or collapsed one), or -1 when
     * none stops it.
     */
    int stopIndex(List<Step> steps, boolean collapses) {
      for (int i = 0; i < steps.size(); i++) {
        if (read(steps, i, collapses).stops()) {
          return i;
        }
      }
      return -1;
    }

    /**
     * The highest OK-true rate a readable step sustained up to and including the step the ramp
     * stopped at (the first saturated or collapsed one), events/s, or null when none stopped it or
     * none before it could be read. Usually that is the saturated step's own rate. A relay that
     * collapses under an offer far above its ceiling (nostream answered 10/s of 800/s offered after
     * following 400/s) answers less there than at the step below; the collapse says what overload
     * does to it, not that its ceiling is 10/s, so the ceiling is the higher rate it did sustain. A
     * collapsed step's own rate is never read (it could not be).
     */
    public Double ceilingPerS(List<Step> steps) {
      return ceilingPerS(steps, true);
    }

    Double ceilingPerS(List<Step> steps, boolean collapses) {
      int stop = stopIndex(steps, collapses);
      if (stop < 0) {
        return null;
      }
      double best = 0;
      for (Step s : steps.subList(0, stop + 1)) {
        if (read(s).readable()) {
          best = Math.max(best, s.answeredPerS());
        }
      }
      return best > 0 ? best : null;
    }

    /**
     * The next step's offer after {@code steps}, or empty when the ramp stops: a step saturated or
     * collapsed, or every offer ran.
     */
    public OptionalDouble next(List<Step> steps) {
      return next(steps, true);
    }

    OptionalDouble next(List<Step> steps, boolean collapses) {
      if (stopIndex(steps, collapses) >= 0) {
        return OptionalDouble.empty();
      }
      List<Double> offers = offers();
      return steps.size() < offers.size()
          ? OptionalDouble.of(offers.get(steps.size()))
          : OptionalDouble.empty();
    }

    /** The rule in words, for the round's file and the console. */
    public String text() {
      return String.format(
          Locale.ROOT,
          "offers from %.0f/s, x %s per step, up to %.0f/s, each a %s s window after the round's"
              + " warm-up, until the OK-true answered rate falls below (1 - %s) x the offer in a"
              + " step whose window's slots were sent and whose halves agree (saturated), or a"
              + " step whose slots were sent has fewer OK-true answers in its window than %s x"
              + " the highest rate a step below it sustained, or it and the step before it each"
              + " fewer than the floor of answers (collapsed); the ceiling is the"
              + " highest rate a readable step sustained up to the one the ramp stopped at",
          startPerS,
          factor,
          maxPerS,
          windowS,
          tolerance,
          COLLAPSE_FRACTION);
    }
  }

  /**
   * What the rule makes of one step.
   *
   * @param kind whether it could be read, and if so whether it followed its offer or saturated
   * @param why the reading in words
   */
  public record Reading(Kind kind, String why) {
    /** A step's answered rate is read when it followed its offer or saturated. */
    public enum Kind {
      NOT_READABLE,
      FOLLOWS,
      SATURATED,
      /**
       * Not readable, and answered far below what a step before it sustained: the relay stopped
       * answering under the offer ({@link Rule#read(List, int)}). Only a step in its ramp is read
       * so.
       */
      COLLAPSED
    }

    /** True when the step is readable and answered below its offer by more than the tolerance. */
    public boolean saturated() {
      return kind == Kind.SATURATED;
    }

    /** Whether the step's answered rate can be read: it followed its offer or saturated. */
    boolean readable() {
      return kind == Kind.FOLLOWS || kind == Kind.SATURATED;
    }

    /** Whether the ramp stops at the step: it saturated or collapsed. */
    public boolean stops() {
      return kind == Kind.SATURATED || kind == Kind.COLLAPSED;
    }
  }

  /**
   * One measured step: a short cell with warm-up.
   *
   * @param offeredPerS its offer, events/s, &gt; 0
   * @param windowS its measurement window, s, &gt; 0
   * @param answeredPerS the OK-true answers credited to the window over the window (the cell's
   *     accepted rate, {@code CellCounts.creditedInWindow}), events/s, &gt;= 0
   * @param okTrueFirstHalf OK-true answers that arrived in the window's first half, &gt;= 0
   * @param okTrueSecondHalf those in its second half, &gt;= 0
   * @param slotsSent the window's slots the generator put on the wire, &gt;= 0
   * @param excluded why the step cannot be read whatever its counts (the window's counts were not
   *     recorded, the drain before it timed out), or null
   */
  public record Step(
      double offeredPerS,
      double windowS,
      double answeredPerS,
      long okTrueFirstHalf,
      long okTrueSecondHalf,
      long slotsSent,
      String excluded) {
    public Step {
      new Checks()
          .positiveFinite("offered_per_s", offeredPerS)
          .positiveFinite("window_s", windowS)
          .nonNegativeFinite("answered_per_s", answeredPerS)
          .nonNegative("ok_true_first_half", okTrueFirstHalf)
          .nonNegative("ok_true_second_half", okTrueSecondHalf)
          .nonNegative("slots_sent", slotsSent)
          .orThrow();
    }
  }

  public CeilingRamp {
    Objects.requireNonNull(rule, "rule must not be null");
    steps = List.copyOf(Objects.requireNonNull(steps, "steps must not be null"));
    Checks checks = new Checks();
    List<Double> offers = rule.offers();
    checks.require(
        steps.size() <= offers.size(),
        "ramp: " + steps.size() + " steps, the rule gives " + offers.size() + " offers");
    for (int i = 0; i < Math.min(steps.size(), offers.size()); i++) {
      checks.require(
          steps.get(i).offeredPerS() == offers.get(i),
          "ramp.steps["
              + i
              + "] offered "
              + steps.get(i).offeredPerS()
              + ", the rule gives "
              + offers.get(i));
      checks.require(
          steps.get(i).windowS() == rule.windowS(),
          "ramp.steps["
              + i
              + "] measured "
              + steps.get(i).windowS()
              + " s, the rule gives "
              + rule.windowS());
      if (i < steps.size() - 1) {
        checks.require(
            !rule.read(steps, i).stops(),
            "ramp.steps["
                + i
                + "] "
                + rule.read(steps, i).kind().name().toLowerCase(Locale.ROOT)
                + ", so the ramp should have stopped there");
      }
    }
    checks.require(
        Objects.equals(ceilingPerS, rule.ceilingPerS(steps)),
        "ramp.ceiling_per_s is " + ceilingPerS + ", its steps give " + rule.ceilingPerS(steps));
    checks.orThrow();
  }

  /**
   * Whether the relay collapsed under the ramp: it stopped at a {@linkplain Reading.Kind#COLLAPSED
   * collapsed} step, or at a saturated one that answered less than a step below it sustained. Such
   * a relay answers less, not the same, under an offer above its ceiling, so a round cannot read
   * its ceiling at one saturating offer (a delay sweep then reads each cell by a ramp: {@code
   * DelaySweepPlan.PointRamp}).
   */
  public boolean collapsed() {
    int stop = rule.stopIndex(steps, true);
    if (stop < 0 || ceilingPerS == null) {
      return false;
    }
    return rule.read(steps, stop).kind() == Reading.Kind.COLLAPSED
        || ceilingPerS > steps.get(stop).answeredPerS();
  }

  /** The ramp {@code steps} give under {@code rule}. */
  public static CeilingRamp of(Rule rule, List<Step> steps) {
    return new CeilingRamp(rule, steps, rule.ceilingPerS(steps));
  }

  /** The result in words: the ceiling and the step that gave it, or why there is none. */
  public String text() {
    if (ceilingPerS != null) {
      int stop = rule.stopIndex(steps, true);
      Step s = steps.get(stop);
      if (rule.read(steps, stop).kind() == Reading.Kind.COLLAPSED) {
        return String.format(
            Locale.ROOT,
            "ceiling %.1f/s measured by the ramp (%d steps), the highest rate a step sustained: the"
                + " step offered %.0f/s got %d OK-true answers in its window (%.1f/s), fewer than"
                + " %s x that, so the relay stopped answering under it; the ramp stopped there"
                + " instead of offering more, and offers far above the ceiling may collapse the"
                + " relay too",
            ceilingPerS,
            steps.size(),
            s.offeredPerS(),
            s.okTrueFirstHalf() + s.okTrueSecondHalf(),
            (s.okTrueFirstHalf() + s.okTrueSecondHalf()) / s.windowS(),
            COLLAPSE_FRACTION);
      }
      if (ceilingPerS > s.answeredPerS()) {
        return String.format(
            Locale.ROOT,
            "ceiling %.1f/s measured by the ramp (%d steps), the highest rate a step sustained: the"
                + " step offered %.0f/s answered only %.1f/s, less than the steps below it, so the"
                + " relay collapses under such an offer and offers far above its ceiling may"
                + " collapse it too",
            ceilingPerS,
            steps.size(),
            s.offeredPerS(),
            s.answeredPerS());
      }
      return String.format(
          Locale.ROOT,
          "ceiling %.1f/s measured by the ramp (%d steps; the step offered %.0f/s saturated)",
          ceilingPerS,
          steps.size(),
          s.offeredPerS());
    }
    int stop = rule.stopIndex(steps, true);
    if (stop >= 0) {
      return String.format(
          Locale.ROOT,
          "the ramp found no ceiling: the relay sustained none of its %d steps up to %.0f/s and"
              + " stopped answering (%s), so its ceiling may lie below the first offer; the ramp"
              + " stopped there instead of offering more",
          steps.size(),
          steps.get(stop).offeredPerS(),
          rule.read(steps, stop).why());
    }
    return String.format(
        Locale.ROOT,
        "the ramp found no ceiling: %d steps up to %.0f/s, none saturated (%s)",
        steps.size(),
        steps.isEmpty() ? 0 : steps.get(steps.size() - 1).offeredPerS(),
        steps.isEmpty() ? "no step ran" : rule.read(steps, steps.size() - 1).why());
  }
}
