package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The ramp's pure rule: its offers, its stop rule and the ceiling it reads, on simulated relays
 * whose ceiling is known, with the partners that must miss it.
 */
class CeilingRampTest {
  private static final CeilingRamp.Rule RULE = RampMeasure.DEFAULT_RULE;

  @Test
  void theOffersDoubleFromTheStartAndEndAtTheMaximum() {
    assertThat(RULE.offers())
        .containsExactly(50.0, 100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0, 12800.0);
    assertThat(new CeilingRamp.Rule(30, 3, 0.1, 500, 1).offers())
        .containsExactly(30.0, 90.0, 270.0, 500.0);
  }

  @Test
  void aBadRuleIsRefusedWithEveryProblemNamed() {
    assertThatThrownBy(() -> new CeilingRamp.Rule(0, 1, 1, -1, 0))
        .hasMessageContaining("ramp.start_per_s")
        .hasMessageContaining("ramp.factor")
        .hasMessageContaining("ramp.tolerance")
        .hasMessageContaining("ramp.max_per_s")
        .hasMessageContaining("ramp.window_s");
  }

  /**
   * A relay with ceiling C answers min(offer, C) OK true, give or take its counting noise (up to 2%
   * either way, split unevenly between the halves by up to 2%). Whatever C in [60, 6000]/s (below
   * half the maximum, so a step above it exists), the ramp stops at the first step above C by more
   * than the tolerance allows and reads C within the noise; its offers never exceed twice the
   * ceiling plus the noise.
   */
  @Test
  void theRampReadsAKnownCeilingWithinItsNoise() {
    Property.forAll(
        "ramp reads the simulated ceiling",
        400,
        rnd -> {
          double c = 60 + rnd.nextDouble() * 5940;
          CeilingRamp ramp = simulate(RULE, c, rnd);
          assertThat(ramp.ceilingPerS()).as("ceiling of a relay at %.1f/s", c).isNotNull();
          assertThat(ramp.ceilingPerS() / c)
              .as("read over true, C = %.1f", c)
              .isBetween(0.98, 1.02);
          double last = ramp.steps().get(ramp.steps().size() - 1).offeredPerS();
          assertThat(last).isLessThanOrEqualTo(2 * c / (1 - RULE.tolerance()) * 1.03);
          // The ramp stopped at its first saturated step: the rule gives no next offer.
          assertThat(RULE.next(ramp.steps())).isEmpty();
        });
  }

  /**
   * The partner: with the stop rule disabled (a tolerance so wide nothing saturates) the same
   * relays give no ceiling at all, and the assertion above fails on every one of them.
   */
  @Test
  void partnerWithTheStopRuleDisabledTheRampFindsNoCeiling() {
    CeilingRamp.Rule disabled = new CeilingRamp.Rule(50, 2, 0.999, 12_800, 2);
    Property.forAll(
        "disabled stop rule misses the ceiling",
        200,
        rnd -> {
          double c = 60 + rnd.nextDouble() * 5940;
          CeilingRamp ramp = simulate(disabled, c, rnd);
          assertThat(ramp.ceilingPerS()).isNull();
          assertThat(ramp.steps()).hasSize(disabled.offers().size());
          assertThat(ramp.text()).contains("found no ceiling");
        });
  }

  /**
   * A second partner: the stop rule taken from the offer instead of the answered rate (the
   * saturated step's offer as the ceiling) misses C by more than the bound above on most relays, so
   * the bound is not loose enough to pass any reading near the right step.
   */
  @Test
  void partnerTheSaturatedStepsOfferIsNotTheCeiling() {
    SplittableRandom rnd = new SplittableRandom(Property.baseSeed());
    int missed = 0;
    for (int i = 0; i < 200; i++) {
      double c = 60 + rnd.nextDouble() * 5940;
      CeilingRamp ramp = simulate(RULE, c, rnd);
      double offer = ramp.steps().get(ramp.steps().size() - 1).offeredPerS();
      if (offer / c > 1.03) {
        missed++;
      }
    }
    assertThat(missed).isEqualTo(200);
  }

  /** A reader applies the rule again: a stored ramp reads back and is the same. */
  /**
   * A relay that collapses far above its ceiling (nostream, quiet machine: 400/s followed, then
   * 10/s of 800/s offered) has a ceiling of at least the highest rate a step sustained, not the
   * collapse's; the ramp stops there and says so. Partner: a saturated step that answers more than
   * the steps below it is the ceiling itself.
   */
  @Test
  void aCollapseUnderOverloadIsNotTheCeiling() {
    List<CeilingRamp.Step> followed =
        List.of(
            new CeilingRamp.Step(50, 2, 50, 50, 50, 100, null),
            new CeilingRamp.Step(100, 2, 100, 100, 100, 200, null),
            new CeilingRamp.Step(200, 2, 200, 200, 200, 400, null),
            new CeilingRamp.Step(400, 2, 400, 400, 400, 800, null));
    List<CeilingRamp.Step> collapsed = new java.util.ArrayList<>(followed);
    collapsed.add(new CeilingRamp.Step(800, 2, 10, 10, 10, 1600, null));
    assertThat(RULE.read(collapsed.get(4)).saturated()).isTrue();
    assertThat(RULE.ceilingPerS(collapsed)).isEqualTo(400.0);
    assertThat(RULE.next(collapsed)).isEmpty();
    CeilingRamp ramp = CeilingRamp.of(RULE, collapsed);
    assertThat(ramp.text())
        .startsWith("ceiling 400.0/s measured by the ramp (5 steps), the highest rate a step")
        .contains("the step offered 800/s answered only 10.0/s");
    assertThat(readBack(ramp)).isEqualTo(ramp);

    List<CeilingRamp.Step> atCeiling = new java.util.ArrayList<>(followed);
    atCeiling.add(new CeilingRamp.Step(800, 2, 530, 530, 530, 1600, null));
    assertThat(RULE.ceilingPerS(atCeiling)).isEqualTo(530.0);
    assertThat(CeilingRamp.of(RULE, atCeiling).text())
        .isEqualTo(
            "ceiling 530.0/s measured by the ramp (5 steps; the step offered 800/s saturated)");
  }

  /**
   * nostream on its Redis link, quiet machine: 50, 100 and 200/s followed, the 400/s step's halves
   * disagreed (257 and 128 answers), and from 800/s on it answered fewer than 10 a window. The ramp
   * stops at 800/s as at a collapse, reads 200/s from the steps before, and never offers 1,600/s,
   * let alone 12,800/s. Partner: with the collapse rules off (the ramp before them) the same relay
   * is offered every step up to 12,800/s and gives no ceiling.
   */
  @Test
  void aRelayThatStopsAnsweringStopsTheRamp() {
    List<CeilingRamp.Step> steps = new ArrayList<>(followedTo(200));
    steps.add(new CeilingRamp.Step(400, 2, 192.5, 257, 128, 800, null));
    assertThat(RULE.read(steps, 3).kind()).isEqualTo(CeilingRamp.Reading.Kind.NOT_READABLE);
    assertThat(RULE.next(steps)).isEqualTo(OptionalDouble.of(800));
    steps.add(new CeilingRamp.Step(800, 2, 2, 3, 1, 1600, null));
    CeilingRamp.Reading collapsed = RULE.read(steps, 4);
    assertThat(collapsed.kind()).isEqualTo(CeilingRamp.Reading.Kind.COLLAPSED);
    assertThat(collapsed.stops()).isTrue();
    assertThat(collapsed.why())
        .isEqualTo(
            "collapsed: 4 OK-true answers in the 2.0 s window (2.0/s), fewer than 0.5 x the"
                + " 200.0/s a step below sustained (not readable: 4 OK-true answers in the window,"
                + " fewer than 10)");
    assertThat(RULE.next(steps)).isEmpty();
    CeilingRamp ramp = CeilingRamp.of(RULE, steps);
    assertThat(ramp.ceilingPerS()).isEqualTo(200.0);
    assertThat(ramp.text())
        .isEqualTo(
            "ceiling 200.0/s measured by the ramp (5 steps), the highest rate a step sustained:"
                + " the step offered 800/s got 4 OK-true answers in its window (2.0/s), fewer than"
                + " 0.5 x that, so the relay stopped answering under it; the ramp stopped there"
                + " instead of offering more, and offers far above the ceiling may collapse the"
                + " relay too");
    assertThat(readBack(ramp)).isEqualTo(ramp);
    // A stored ramp that went on past the collapse is refused: its reader applies the rule again.
    List<CeilingRamp.Step> past = new ArrayList<>(steps);
    past.add(new CeilingRamp.Step(1600, 2, 2, 3, 1, 3200, null));
    assertThatThrownBy(() -> CeilingRamp.of(RULE, past))
        .hasMessageContaining("ramp.steps[4] collapsed, so the ramp should have stopped there");

    // The partner: the ramp without the collapse rule steps on to 12,800/s.
    List<CeilingRamp.Step> off = new ArrayList<>(followedTo(200));
    off.add(new CeilingRamp.Step(400, 2, 192.5, 257, 128, 800, null));
    for (OptionalDouble next = RULE.next(off, false);
        next.isPresent();
        next = RULE.next(off, false)) {
      double offer = next.getAsDouble();
      off.add(new CeilingRamp.Step(offer, 2, 2, 3, 1, Math.round(2 * offer), null));
    }
    assertThat(off.get(off.size() - 1).offeredPerS()).isEqualTo(12_800.0);
    assertThat(RULE.ceilingPerS(off, false)).isNull();
  }

  /**
   * A relay that answers below half what it sustained but still many answers (halves disagreeing,
   * 90 of 200/s) stops the ramp; one that answers more than half (110/s) may be a relay at its
   * ceiling settling, and the ramp goes on. The threshold is what decides, not the readability. A
   * generator that did not send the window's slots is not a collapse of the relay.
   */
  @Test
  void theCollapseThresholdIsHalfWhatWasSustained() {
    List<CeilingRamp.Step> below = new ArrayList<>(followedTo(200));
    below.add(new CeilingRamp.Step(400, 2, 90, 170, 10, 800, null));
    assertThat(RULE.read(below, 3).kind()).isEqualTo(CeilingRamp.Reading.Kind.COLLAPSED);
    assertThat(RULE.ceilingPerS(below)).isEqualTo(200.0);
    List<CeilingRamp.Step> above = new ArrayList<>(followedTo(200));
    above.add(new CeilingRamp.Step(400, 2, 110, 210, 10, 800, null));
    assertThat(RULE.read(above, 3).kind()).isEqualTo(CeilingRamp.Reading.Kind.NOT_READABLE);
    assertThat(RULE.next(above)).isEqualTo(OptionalDouble.of(800));
    List<CeilingRamp.Step> unsent = new ArrayList<>(followedTo(200));
    unsent.add(new CeilingRamp.Step(400, 2, 2, 3, 1, 300, null));
    assertThat(RULE.read(unsent, 3).kind()).isEqualTo(CeilingRamp.Reading.Kind.NOT_READABLE);
    assertThat(RULE.read(unsent, 3).why()).contains("sent 300 of the window's 800 slots");
    assertThat(RULE.next(unsent)).isEqualTo(OptionalDouble.of(800));
  }

  /**
   * A relay of ceiling C in [60, 6000]/s that, offered more than C, either holds C or collapses
   * (fewer than 10 answers a window, or under 45% of C with its halves lopsided), chosen at random
   * per step: the ramp stops at its first step above C, so it never offers more than twice the
   * ceiling (plus the tolerance and noise), and reads a ceiling between half of C (the last step
   * that followed, the ramp doubles) and C. Partner: the collapse rule off, every relay that
   * collapses at its first step above C is offered 12,800/s and gives no ceiling.
   */
  @Test
  void aCollapsingRelayIsNeverOfferedFarAboveItsCeiling() {
    Property.forAll(
        "ramp stops at a collapse",
        400,
        rnd -> {
          double c = 60 + rnd.nextDouble() * 5940;
          CeilingRamp ramp = CeilingRamp.of(RULE, simulateCollapsing(true, c, rnd, false));
          assertThat(ramp.ceilingPerS()).as("ceiling of a relay at %.1f/s", c).isNotNull();
          // The simulated relay answers up to 2% above its ceiling, rounded to whole events: one
          // event more over the window is the rounding, not the ramp (seed -8338024214715711594
          // read 1.0200386 at C = 60-odd/s, a 2 s window).
          assertThat(ramp.ceilingPerS() / c)
              .as("read over true, C = %.1f", c)
              .isBetween(0.49, 1.02 + 1 / (c * RULE.windowS()));
          double last = ramp.steps().get(ramp.steps().size() - 1).offeredPerS();
          assertThat(last).isLessThanOrEqualTo(2 * c / (1 - RULE.tolerance()) * 1.03);
          assertThat(RULE.next(ramp.steps())).isEmpty();
        });
    Property.forAll(
        "without the collapse rule the ramp steps on",
        200,
        rnd -> {
          double c = 60 + rnd.nextDouble() * 5940;
          List<CeilingRamp.Step> steps = simulateCollapsing(false, c, rnd, true);
          assertThat(steps.get(steps.size() - 1).offeredPerS()).isEqualTo(12_800.0);
          assertThat(RULE.ceilingPerS(steps, false)).isNull();
        });
  }

  /**
   * nostream's PostgreSQL link on a loaded machine (load above 20): 0 OK-true answers in the 50/s
   * step's window, 6 in the 100/s step's. Nothing was sustained, so no ceiling can be read, but two
   * silent steps in a row stop the ramp at 100/s instead of offering up to 12,800/s; the words say
   * the ceiling may lie below the first offer. One silent first step (a relay still starting) does
   * not stop it. Partner: the collapse rules off, the ramp steps on to 12,800/s.
   */
  @Test
  void aRelayThatNeverAnswersStopsTheRampWithoutACeiling() {
    List<CeilingRamp.Step> steps = new ArrayList<>();
    steps.add(new CeilingRamp.Step(50, 2, 0, 0, 0, 100, null));
    assertThat(RULE.next(steps)).isEqualTo(OptionalDouble.of(100));
    steps.add(new CeilingRamp.Step(100, 2, 3, 4, 2, 200, null));
    assertThat(RULE.read(steps, 1).why())
        .isEqualTo(
            "collapsed: 6 OK-true answers in the window and 0 in the step before's, each fewer"
                + " than 10");
    assertThat(RULE.next(steps)).isEmpty();
    CeilingRamp ramp = CeilingRamp.of(RULE, steps);
    assertThat(ramp.ceilingPerS()).isNull();
    assertThat(ramp.text())
        .startsWith(
            "the ramp found no ceiling: the relay sustained none of its 2 steps up to 100/s and"
                + " stopped answering (collapsed: 6 OK-true answers")
        .endsWith(
            "so its ceiling may lie below the first offer; the ramp stopped there instead of"
                + " offering more");
    assertThat(RampMeasure.noCeiling(ramp, "--rate")).endsWith("pass --rate");
    assertThat(readBack(ramp)).isEqualTo(ramp);

    List<CeilingRamp.Step> off = new ArrayList<>();
    for (OptionalDouble next = RULE.next(off, false);
        next.isPresent();
        next = RULE.next(off, false)) {
      double offer = next.getAsDouble();
      off.add(new CeilingRamp.Step(offer, 2, 0, 0, 0, Math.round(2 * offer), null));
    }
    assertThat(off.get(off.size() - 1).offeredPerS()).isEqualTo(12_800.0);
  }

  /** Steps that followed 50/s doubling up to {@code toPerS}. */
  private static List<CeilingRamp.Step> followedTo(double toPerS) {
    List<CeilingRamp.Step> out = new ArrayList<>();
    for (double x = 50; x <= toPerS; x *= 2) {
      long half = Math.round(x);
      out.add(new CeilingRamp.Step(x, 2, x, half, half, 2 * half, null));
    }
    return out;
  }

  /**
   * The steps of the ramp with the collapse rules on or off ({@code collapses}) on a relay of
   * ceiling {@code c} that follows offers up to c and above it holds c or collapses at random
   * ({@code alwaysCollapse}: always collapses, unreadably).
   */
  private static List<CeilingRamp.Step> simulateCollapsing(
      boolean collapses, double c, SplittableRandom rnd, boolean alwaysCollapse) {
    List<CeilingRamp.Step> steps = new ArrayList<>();
    double sustained = 0;
    for (OptionalDouble next = RULE.next(steps, collapses);
        next.isPresent();
        next = RULE.next(steps, collapses)) {
      double offer = next.getAsDouble();
      double w = RULE.windowS();
      long sent = Math.round(offer * w);
      int kind = offer <= c ? 0 : alwaysCollapse ? 1 + rnd.nextInt(2) : rnd.nextInt(3);
      long first;
      long second;
      if (kind == 0) {
        // Follows (or holds its ceiling), give or take 2%, halves within 2%.
        long events = Math.round(Math.min(offer, c) * w * (1 + rnd.nextDouble() * 0.04 - 0.02));
        first = Math.round(events / 2.0 * (1 + rnd.nextDouble() * 0.04 - 0.02));
        second = Math.max(0, events - first);
        sustained = Math.max(sustained, (first + second) / w);
      } else if (kind == 1) {
        // Silent: fewer than the floor of answers.
        first = rnd.nextInt(5);
        second = rnd.nextInt(5);
      } else {
        // Under 45% of what it sustained, all in the first half (the backlog's answers, then
        // nothing).
        long events = (long) Math.floor(sustained * w * rnd.nextDouble() * 0.45);
        first = events;
        second = 0;
        if (first <= Math.max(RULE.tolerance() * offer * w, 10)) {
          first = rnd.nextInt(5);
        }
      }
      steps.add(new CeilingRamp.Step(offer, w, (first + second) / w, first, second, sent, null));
    }
    return steps;
  }

  @Test
  void aStoredRampReadsBack() {
    CeilingRamp ramp = simulate(RULE, 700, new SplittableRandom(Property.baseSeed()));
    assertThat(readBack(ramp)).isEqualTo(ramp);
  }

  /** A step whose halves disagree (a backlog landing in the window) is not read as saturated. */
  @Test
  void aStepWhoseHalvesDisagreeIsNotReadAndTheRampGoesOn() {
    CeilingRamp.Step skewed = new CeilingRamp.Step(400, 2, 300, 500, 100, 800, null);
    assertThat(RULE.read(skewed).saturated()).isFalse();
    assertThat(RULE.read(skewed).why()).contains("halves disagree");
    CeilingRamp.Step excluded = new CeilingRamp.Step(400, 2, 300, 300, 300, 800, "drain timed out");
    assertThat(RULE.read(excluded).saturated()).isFalse();
    // A relay that answered nothing in the window (stalled, or still starting) is not at a ceiling
    // of 0/s: the step is not read and the ramp goes on.
    CeilingRamp.Step silent = new CeilingRamp.Step(50, 2, 0, 0, 0, 100, null);
    assertThat(RULE.read(silent).saturated()).isFalse();
    assertThat(RULE.read(silent).why()).contains("0 OK-true answers in the window");
    assertThat(RULE.next(List.of(silent))).isEqualTo(OptionalDouble.of(100));
    // A generator that could not send the window's slots offered less than the step says.
    CeilingRamp.Step unsent = new CeilingRamp.Step(400, 2, 300, 300, 300, 600, null);
    assertThat(RULE.read(unsent).saturated()).isFalse();
    assertThat(RULE.read(unsent).why()).contains("sent 600 of the window's 800 slots");
    assertThat(RULE.read(new CeilingRamp.Step(400, 2, 300, 300, 300, 800, null)).saturated())
        .isTrue();
    List<CeilingRamp.Step> steps =
        List.of(
            new CeilingRamp.Step(50, 2, 50, 50, 50, 100, null),
            new CeilingRamp.Step(100, 2, 100, 100, 100, 200, null),
            new CeilingRamp.Step(200, 2, 200, 200, 200, 400, null),
            skewed);
    assertThat(RULE.next(steps)).isEqualTo(OptionalDouble.of(800));
    assertThat(RULE.ceilingPerS(steps)).isNull();
  }

  /** A stored ramp whose ceiling its steps do not give, or steps off the rule, is refused. */
  @Test
  void aRampInconsistentWithItsRuleIsRefused() {
    List<CeilingRamp.Step> steps =
        List.of(
            new CeilingRamp.Step(50, 2, 50, 50, 50, 100, null),
            new CeilingRamp.Step(100, 2, 70, 70, 70, 200, null));
    assertThat(CeilingRamp.of(RULE, steps).ceilingPerS()).isEqualTo(70.0);
    assertThatThrownBy(() -> new CeilingRamp(RULE, steps, 100.0))
        .hasMessageContaining("its steps give 70.0");
    List<CeilingRamp.Step> offRule = List.of(new CeilingRamp.Step(60, 2, 50, 50, 50, 120, null));
    assertThatThrownBy(() -> CeilingRamp.of(RULE, offRule))
        .hasMessageContaining("the rule gives 50.0");
    List<CeilingRamp.Step> past =
        List.of(
            new CeilingRamp.Step(50, 2, 20, 20, 20, 100, null),
            new CeilingRamp.Step(100, 2, 20, 20, 20, 200, null));
    assertThatThrownBy(() -> CeilingRamp.of(RULE, past))
        .hasMessageContaining("should have stopped there");
  }

  /** The ramp as {@link RampMeasure} runs it, on a simulated relay of ceiling {@code c}. */
  static CeilingRamp simulate(CeilingRamp.Rule rule, double c, SplittableRandom rnd) {
    List<CeilingRamp.Step> steps = new ArrayList<>();
    for (OptionalDouble next = rule.next(steps); next.isPresent(); next = rule.next(steps)) {
      double offer = next.getAsDouble();
      double answered = Math.min(offer, c) * (1 + rnd.nextDouble() * 0.04 - 0.02);
      long events = Math.round(answered * rule.windowS());
      long first = Math.round(events / 2.0 * (1 + rnd.nextDouble() * 0.04 - 0.02));
      long second = Math.max(0, events - first);
      long sent = Math.round(offer * rule.windowS());
      steps.add(new CeilingRamp.Step(offer, rule.windowS(), answered, first, second, sent, null));
    }
    return CeilingRamp.of(rule, steps);
  }

  private static CeilingRamp readBack(CeilingRamp r) {
    try {
      return Json.mapper().readValue(Json.mapper().writeValueAsString(r), CeilingRamp.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
