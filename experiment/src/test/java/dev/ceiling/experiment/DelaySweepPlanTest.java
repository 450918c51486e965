package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.Property;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan of a delay sweep: a pure function of its inputs, fixed before any cell. */
class DelaySweepPlanTest {
  private static DelaySweepPlan plan(List<Double> delays, int repeats, long seed) {
    return DelaySweepPlan.builder()
        .link("db")
        .delaysMs(delays)
        .repeats(repeats)
        .offeredPerS(300)
        .offerRule("given")
        .perPointOffer(null)
        .durationS(3)
        .seed(seed)
        .level(0.95)
        .lackOfFitAlpha(0.05)
        .expectedRoundTrips(6.0)
        .margin(0.5)
        .build();
  }

  @Test
  void everyDelayAndRepeatRunsOnceInAnOrderTheSeedFixes() {
    List<Double> grid = List.of(0.0, 0.5, 1.0, 2.0, 3.0, 4.0);
    DelaySweepPlan p = plan(grid, 3, 42);
    assertThat(p.cells()).hasSize(18);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < p.cells().size(); i++) {
      DelaySweepPlan.Cell c = p.cells().get(i);
      assertThat(c.sequence()).isEqualTo(i);
      seen.add(c.addedDelayMs() + "/" + c.repeat());
    }
    assertThat(seen).doesNotHaveDuplicates();
    assertThat(plan(grid, 3, 42)).isEqualTo(p);
    // Partner: another seed gives another order of the same cells, and neither is the grid's own
    // ascending order (which would confound the delay with time in the run).
    DelaySweepPlan other = plan(grid, 3, 43);
    assertThat(other.cells()).isNotEqualTo(p.cells());
    assertThat(other.cells().stream().map(c -> c.addedDelayMs() + "/" + c.repeat()).toList())
        .containsExactlyInAnyOrderElementsOf(seen);
    List<Double> inOrder = p.cells().stream().map(DelaySweepPlan.Cell::addedDelayMs).toList();
    assertThat(inOrder).isNotEqualTo(inOrder.stream().sorted().toList());
  }

  @Test
  void aBadGridIsRefusedWithEveryProblemNamed() {
    assertThat(DelaySweepPlan.problemsOfGrid(List.of(0.0, 1.0, 1.0, -2.0)))
        .containsExactly(
            "delays must be strictly ascending without duplicates, got [0.0, 1.0, 1.0, -2.0]",
            "delays must each be in [0, 10000] ms, got -2.0");
    assertThat(DelaySweepPlan.problemsOfGrid(List.of(3.0)))
        .containsExactly("delays must name at least 2 delays for a line, got [3.0]");
    assertThat(DelaySweepPlan.problemsOfGrid(List.of(0.0, 0.5, 4.0))).isEmpty();
    assertThatThrownBy(() -> plan(List.of(2.0, 1.0), 0, 1))
        .hasMessageContaining("delays must be strictly ascending")
        .hasMessageContaining("repeats must be >= 1, got 0");
  }

  @Test
  void theOptionsNameAnUnknownLinkWithTheDeclaredOnes() throws Exception {
    var profile = dev.ceiling.rig.RelayProfile.builtIn("reference-linked");
    assertThat(
            DelaySweep.builder()
                .profile(profile)
                .link("redis")
                .delaysMs(List.of(0.0, 1.0))
                .repeats(2)
                .duration(java.time.Duration.ofSeconds(1))
                .problems())
        .containsExactly(
            "link 'redis' is not a link of profile 'reference-linked', which declares [db]");
    assertThat(
            DelaySweep.builder()
                .profile(profile)
                .link("db")
                .delaysMs(List.of(0.0, 1.0))
                .repeats(1)
                .duration(java.time.Duration.ZERO)
                .rate(-1.0)
                .expectRoundTrips(-1.0)
                .margin(0)
                .problems())
        .hasSize(5);
    // Partner: good settings have no problem.
    assertThat(
            DelaySweep.builder()
                .profile(profile)
                .link("db")
                .delaysMs(List.of(0.0, 1.0))
                .repeats(2)
                .duration(java.time.Duration.ofSeconds(1))
                .expectRoundTrips(6.0)
                .problems())
        .isEmpty();
  }

  @TempDir Path out;

  private DelaySweepOptions.Builder sweep() throws Exception {
    return DelaySweep.builder()
        .profile(dev.ceiling.rig.RelayProfile.builtIn("reference-linked"))
        .link("db")
        .delaysMs(List.of(0.0, 2.0, 4.0))
        .repeats(2)
        .duration(java.time.Duration.ofSeconds(2))
        .outDir(out);
  }

  /**
   * Without --latency-rate, a plan whose offers rest on the ramp declares its latency offer from
   * the ramp's ceiling, a tenth of it, in the plan (and its words) before the first cell; a resume
   * that rebuilds the plan from the stored ramp declares the same. With --latency-rate the user's
   * value wins. Partner: a plan whose offers rest on a given rate has no ramp and no latency slope
   * unless asked.
   */
  @Test
  void withoutALatencyRateThePlanDeclaresOneFromTheRampsCeiling() throws Exception {
    CeilingRamp ramp =
        CeilingRampTest.simulate(
            RampMeasure.DEFAULT_RULE, 437, new SplittableRandom(Property.baseSeed()));
    double c = ramp.ceilingPerS();
    var rig = DelaySweepFromTheClientTest.metricsLess();
    DelaySweepOptions auto = sweep().build();
    DelaySweepPlan p = auto.plan(rig, ramp);
    assertThat(p.latencyOfferedPerS())
        .as("ceiling %.1f/s", c)
        .isEqualTo((double) Math.round(0.1 * c))
        .isLessThan(c / 5);
    assertThat(p.offerRule())
        .endsWith(
            String.format(
                java.util.Locale.ROOT,
                "; latency cells at 0.1 x the ramp's ceiling, %.0f/s (well below it;"
                    + " --latency-rate overrides)",
                p.latencyOfferedPerS()));
    // In the plan as written, so a reader sees it before the first cell's result.
    assertThat(Json.mapper().valueToTree(p).get("latency_offered_per_s").asDouble())
        .isEqualTo(p.latencyOfferedPerS());
    // A resume rebuilds the plan from the stored offer, rule and ramp: the same latency offer.
    assertThat(rebuilt(auto, p, auto.automaticPointRampOn(p.ceilingRamp()))).isEqualTo(p);

    DelaySweepPlan given = sweep().latencyRate(7.0).build().plan(rig, ramp);
    assertThat(given.latencyOfferedPerS()).isEqualTo(7.0);
    assertThat(given.offerRule()).doesNotContain("latency");
    assertThat(given.offeredPerS()).isEqualTo(p.offeredPerS());

    // The partner: a given rate, no ramp, no latency slope unless asked.
    assertThat(sweep().rate(300.0).build().plan(rig).latencyOfferedPerS()).isNull();
    assertThat(sweep().rate(300.0).latencyRate(7.0).build().plan(rig).latencyOfferedPerS())
        .isEqualTo(7.0);
  }

  /**
   * The plan a resume rebuilds from {@code p}'s stored offer, rule and ramp, as DelaySweepResume
   * does.
   */
  private static DelaySweepPlan rebuilt(
      DelaySweepOptions o, DelaySweepPlan p, DelaySweepPlan.PointRamp pointRamp) {
    return o.plan(p.offeredPerS(), p.offerRule(), p.perPointOffer(), p.ceilingRamp(), pointRamp);
  }

  private static List<CeilingRamp.Step> followedTo400() {
    return List.of(
        new CeilingRamp.Step(50, 2, 50, 50, 50, 100, null),
        new CeilingRamp.Step(100, 2, 100, 100, 100, 200, null),
        new CeilingRamp.Step(200, 2, 200, 200, 200, 400, null),
        new CeilingRamp.Step(400, 2, 400, 400, 400, 800, null));
  }

  /**
   * A ceiling ramp that saw the relay collapse (nostream on a quiet machine: 400/s followed, 9
   * OK-true answers at 800/s) makes the plan declare, before the first cell, that each cell is a
   * ramp at its delay: from a quarter of the ceiling, x 1.25, up to three times the ceiling (the
   * plan's first offer), the cells' window, and no per-point single offer. A resume rebuilds the
   * same plan from the stored ramp. A ramp that stopped at a saturated step declares one too, with
   * its own reason. Partners: a sweep that asked for one offer per cell declares none, after either
   * ramp.
   */
  @Test
  void aRampThatMeasuredTheCeilingDeclaresAPointRampBeforeTheFirstCell() throws Exception {
    List<CeilingRamp.Step> collapsing = new java.util.ArrayList<>(followedTo400());
    collapsing.add(new CeilingRamp.Step(800, 2, 4.5, 9, 0, 1600, null));
    CeilingRamp ramp = CeilingRamp.of(RampMeasure.DEFAULT_RULE, collapsing);
    assertThat(ramp.collapsed()).isTrue();
    var rig = DelaySweepFromTheClientTest.metricsLess();
    DelaySweepOptions auto = sweep().build();
    DelaySweepPlan p = auto.plan(rig, ramp);
    assertThat(p.pointRamp())
        .isEqualTo(new DelaySweepPlan.PointRamp(new CeilingRamp.Rule(100, 1.25, 0.1, 1200, 2), 2));
    assertThat(p.perPointOffer()).isNull();
    assertThat(p.offeredPerS()).isEqualTo(1200.0);
    assertThat(p.latencyOfferedPerS()).isEqualTo(40.0);
    assertThat(p.offerRule())
        .startsWith("each cell a ramp at its delay")
        .contains("the ceiling the ramp measured at zero added delay (400.0/s)")
        .contains("latency cells at 0.1 x the ramp's ceiling");
    assertThat(Json.mapper().valueToTree(p).get("point_ramp").get("settle_s").asDouble())
        .isEqualTo(2.0);
    assertThat(rebuilt(auto, p, auto.automaticPointRamp(400, RampMeasure.DEFAULT_RULE)))
        .isEqualTo(p);
    // The partner: one offer per cell asked for, the same collapse declares no point ramp.
    DelaySweepPlan single = sweep().oneOfferPerCell().build().plan(rig, ramp);
    assertThat(single.pointRamp()).isNull();
    assertThat(single.perPointOffer()).isNotNull();
    assertThat(single.offeredPerS()).isEqualTo(600.0);

    // A ramp that stopped at a saturated step (the 800/s step answered 450/s, halves agreeing)
    // did not see a collapse, and still declares a ramp per cell: one short saturated step cannot
    // say whether the relay holds its ceiling above it or was read cold (nostream's db link: 279/s
    // at the ramp, 419/s answered in every cell). Its rule says why in the plan.
    List<CeilingRamp.Step> holding = new java.util.ArrayList<>(followedTo400());
    holding.add(new CeilingRamp.Step(800, 2, 450, 450, 450, 1600, null));
    CeilingRamp held = CeilingRamp.of(RampMeasure.DEFAULT_RULE, holding);
    assertThat(held.collapsed()).isFalse();
    DelaySweepPlan q = auto.plan(rig, held);
    assertThat(q.pointRamp()).isEqualTo(auto.automaticPointRamp(450, RampMeasure.DEFAULT_RULE));
    assertThat(q.perPointOffer()).isNull();
    assertThat(q.offerRule())
        .contains("the ramp stopped at one saturated step")
        .doesNotContain("collapse above its ceiling");
    // Its partner: one offer per cell asked for, the held ramp declares no point ramp either.
    DelaySweepPlan heldSingle = sweep().oneOfferPerCell().build().plan(rig, held);
    assertThat(heldSingle.pointRamp()).isNull();
    assertThat(heldSingle.perPointOffer()).isNotNull();
  }

  /** The relay of {@link #theCapReachesSaturationWhereTheCeilingRampReadTheRelayLow}. */
  private static double trueCeiling(double delayMs) {
    return 1000 / (5 + 3 * delayMs);
  }

  /** Ramp {@code rule} on a relay of ceiling {@code c} that collapses to a fifth of it above. */
  private static CeilingRamp rampOn(CeilingRamp.Rule rule, double c) {
    List<CeilingRamp.Step> steps = new java.util.ArrayList<>();
    double w = rule.windowS();
    for (var next = rule.next(steps); next.isPresent(); next = rule.next(steps)) {
      double offer = next.getAsDouble();
      long offered = Math.round(offer * w);
      steps.add(
          offer <= c
              ? new CeilingRamp.Step(offer, w, offer, offered / 2, offered / 2, offered, null)
              : new CeilingRamp.Step(
                  offer,
                  w,
                  Math.round(0.2 * c * w) / w,
                  Math.round(0.2 * c * w),
                  0,
                  offered,
                  null));
    }
    return CeilingRamp.of(rule, steps);
  }

  /**
   * The cap of the point ramp a collapsing ceiling ramp declares lets each cell reach its delay's
   * saturation even where the ceiling ramp read the relay low (a load that eased after it): a relay
   * whose ceiling follows 1000 / C = 5 + 3 d ms (200/s at zero delay, 71/s at 3 ms), read at 100/s
   * by its ceiling ramp. Under the plan's rule (up to 3 x 100/s) every cell's ramp at 0 to 3 ms
   * stops at a collapse and reads a ceiling within one step (x 1.25) below the truth. Partner: the
   * earlier cap, the single offer's 1.5 x (150/s), leaves the zero-delay cell's ramp at its cap
   * without a stop, so that cell has no ceiling.
   */
  @Test
  void theCapReachesSaturationWhereTheCeilingRampReadTheRelayLow() throws Exception {
    DelaySweepPlan.PointRamp point =
        sweep().build().automaticPointRamp(100, RampMeasure.DEFAULT_RULE);
    assertThat(point.rule().maxPerS()).isEqualTo(300.0);
    for (double d : List.of(0.0, 1.0, 2.0, 3.0)) {
      CeilingRamp r = rampOn(point.rule(), trueCeiling(d));
      assertThat(r.collapsed()).as("at %s ms", d).isTrue();
      assertThat(r.ceilingPerS())
          .as("at %s ms", d)
          .isLessThanOrEqualTo(trueCeiling(d))
          .isGreaterThan(trueCeiling(d) / 1.25);
    }
    // The partner: the cap at 1.5 x the low reading.
    CeilingRamp.Rule old =
        new CeilingRamp.Rule(
            point.rule().startPerS(),
            point.rule().factor(),
            point.rule().tolerance(),
            150,
            point.rule().windowS());
    CeilingRamp atZero = rampOn(old, trueCeiling(0));
    assertThat(atZero.collapsed()).isFalse();
    assertThat(atZero.ceilingPerS()).isNull();
    assertThat(atZero.steps().get(atZero.steps().size() - 1).offeredPerS()).isLessThan(200.0);
  }

  /** A point ramp of one's own excludes a rate, and its window must be the cells'. */
  @Test
  void aPointRampWithARateOrAnotherWindowIsRefusedWithBothNamed() throws Exception {
    assertThat(
            sweep().rate(100.0).pointRamp(new CeilingRamp.Rule(10, 2, 0.1, 100, 1), 1).problems())
        .containsExactlyInAnyOrder(
            "a point ramp and a rate exclude each other: a cell is a ramp or one offer",
            "the point ramp's window must be the cells' duration 2.0 s, got 1.0");
    DelaySweepPlan given =
        sweep()
            .pointRamp(new CeilingRamp.Rule(10, 2, 0.1, 100, 2), 1)
            .build()
            .plan(DelaySweepFromTheClientTest.metricsLess());
    assertThat(given.offeredPerS()).isEqualTo(100.0);
    assertThat(given.pointRamp().rule().startPerS()).isEqualTo(10.0);
  }

  /** A ceiling so low that a tenth of it, at least 1/s, is not below the first offer: none. */
  @Test
  void aCeilingTooLowForALatencyOfferDeclaresNone() {
    assertThat(DelaySweepOptions.automaticLatencyRate(400, 600)).isEqualTo(40.0);
    assertThat(DelaySweepOptions.automaticLatencyRate(4, 6)).isEqualTo(1.0);
    assertThat(DelaySweepOptions.automaticLatencyRate(0.5, 1)).isNull();
  }
}
