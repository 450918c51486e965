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
 * @param ceilingPerS the answered rate of the first saturated step, events/s, or null when no step
 *     saturated (the ramp reached its maximum, or stopped early)
 */
public record CeilingRamp(Rule rule, List<Step> steps, Double ceilingPerS) {

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
     * The highest OK-true rate a readable step sustained up to and including the first saturated
     * one, events/s, or null when none saturated. Usually that is the saturated step's own rate. A
     * relay that collapses under an offer far above its ceiling (nostream answered 10/s of 800/s
     * offered after following 400/s) answers less there than at the step below; the collapse says
     * what overload does to it, not that its ceiling is 10/s, so the ceiling is the higher rate it
     * did sustain.
     */
    public Double ceilingPerS(List<Step> steps) {
      double best = 0;
      for (Step s : steps) {
        Reading r = read(s);
        if (r.readable()) {
          best = Math.max(best, s.answeredPerS());
        }
        if (r.saturated()) {
          return best;
        }
      }
      return null;
    }

    /**
     * The next step's offer after {@code steps}, or empty when the ramp stops: a step saturated, or
     * every offer ran.
     */
    public OptionalDouble next(List<Step> steps) {
      if (ceilingPerS(steps) != null) {
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
              + " step whose window's slots were sent and whose halves agree; the ceiling is that"
              + " step's answered rate",
          startPerS,
          factor,
          maxPerS,
          windowS,
          tolerance);
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
      SATURATED
    }

    /** True when the step is readable and answered below its offer by more than the tolerance. */
    public boolean saturated() {
      return kind == Kind.SATURATED;
    }

    /** Whether the step's answered rate can be read: it followed its offer or saturated. */
    boolean readable() {
      return kind != Kind.NOT_READABLE;
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
            !rule.read(steps.get(i)).saturated(),
            "ramp.steps[" + i + "] saturated, so the ramp should have stopped there");
      }
    }
    checks.require(
        Objects.equals(ceilingPerS, rule.ceilingPerS(steps)),
        "ramp.ceiling_per_s is " + ceilingPerS + ", its steps give " + rule.ceilingPerS(steps));
    checks.orThrow();
  }

  /** The ramp {@code steps} give under {@code rule}. */
  public static CeilingRamp of(Rule rule, List<Step> steps) {
    return new CeilingRamp(rule, steps, rule.ceilingPerS(steps));
  }

  /** The result in words: the ceiling and the step that gave it, or why there is none. */
  public String text() {
    if (ceilingPerS != null) {
      Step s = steps.stream().filter(x -> rule.read(x).saturated()).findFirst().orElseThrow();
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
    return String.format(
        Locale.ROOT,
        "the ramp found no ceiling: %d steps up to %.0f/s, none saturated (%s)",
        steps.size(),
        steps.isEmpty() ? 0 : steps.get(steps.size() - 1).offeredPerS(),
        steps.isEmpty() ? "no step ran" : rule.read(steps.get(steps.size() - 1)).why());
  }
}
