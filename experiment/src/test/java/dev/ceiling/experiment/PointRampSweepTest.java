package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.rig.proxy.LinkCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * A delay sweep whose cells are each a ramp at their delay ({@link DelaySweepPlan.PointRamp}), on a
 * simulated relay that collapses above its ceiling as nostream does: it answers every offer up to
 * its ceiling C(d), and above it a fifth of C, unevenly over the window (the halves disagree). Its
 * ceiling follows 1000 / C = 5 + 3 d ms per event over d = 0, 1, 2, 3 ms (C = 200, 125, 90.9,
 * 71.4/s): 3 round trips per event on a link of concurrency 1. Worked by hand for the rule below
 * (from 40/s, x 1.1, up to 300/s, 10 s windows): each ramp follows up to the last offer below C and
 * collapses at the next, so the cells read 183.7, 114.1, 85.7 and 70.9/s (1000 / C = 5.44, 8.76,
 * 11.67, 14.10 ms), whose line has slope 2.89: the true 3 within the rule's step of 10%.
 */
class PointRampSweepTest {
  private static final double WINDOW_S = 10;
  private static final CeilingRamp.Rule RULE = new CeilingRamp.Rule(40, 1.1, 0.1, 300, WINDOW_S);
  private static final DelaySweepPlan PLAN =
      DelaySweepFromTheClientTest.PLAN.toBuilder()
          .perPointOffer(null)
          .offeredPerS(300)
          .offerRule("point ramp")
          .pointRamp(new DelaySweepPlan.PointRamp(RULE, 2))
          .build();

  static double ceiling(double delayMs) {
    return 1000 / (5 + 3 * delayMs);
  }

  /** A step the simulated relay answers: the offer up to its ceiling, a fifth of it above. */
  private static CeilingRamp.Step step(double offer, double c) {
    long offered = Math.round(offer * WINDOW_S);
    if (offer <= c) {
      return new CeilingRamp.Step(offer, WINDOW_S, offer, offered / 2, offered / 2, offered, null);
    }
    long answered = Math.round(0.2 * c * WINDOW_S);
    return new CeilingRamp.Step(offer, WINDOW_S, answered / WINDOW_S, answered, 0, offered, null);
  }

  /** The ramp the sweep would measure at {@code delayMs}, step by step as {@link DelayCells}. */
  static CeilingRamp ramp(double delayMs) {
    double c = ceiling(delayMs);
    List<CeilingRamp.Step> steps = new ArrayList<>();
    for (OptionalDouble next = RULE.next(steps); next.isPresent(); next = RULE.next(steps)) {
      steps.add(step(next.getAsDouble(), c));
    }
    return CeilingRamp.of(RULE, steps);
  }

  /** The step cell a ceiling was read from: it followed its offer, every slot answered OK true. */
  private static Cell followed(DelaySweepPlan.Cell p, double offer) {
    long half = Math.round(offer * WINDOW_S / 2);
    return HalfRuns.cell(HalfRuns.ON, offer, p.repeat(), p.sequence(), WINDOW_S, 1.0)
        .counterDeltas(Map.of())
        .warmupSlotsSent(0L)
        .acceptedInWindow(2 * half)
        .windowCounts(half, half, 2 * half, 0, 0, 0, 0)
        .build();
  }

  private static DelaySweepReport sweep(java.util.function.DoubleFunction<CeilingRamp> ramps) {
    List<DelaySweepAnalysis.Measured> measured = new ArrayList<>();
    for (DelaySweepPlan.Cell p : PLAN.cells()) {
      CeilingRamp r = ramps.apply(p.addedDelayMs());
      double offer = r.steps().get(DelaySweepAnalysis.ceilingStep(r)).offeredPerS();
      measured.add(
          new DelaySweepAnalysis.Measured(
              p,
              followed(p, offer),
              new LinkCounters(1, 0, 3000, 0, 0, 0, 0),
              null,
              null,
              new DelaySweepAnalysis.PointMeasured(r, 1000.0)));
    }
    return DelaySweepAnalysis.report(
        "nostream",
        DelaySweepFromTheClientTest.metricsLess(),
        DelaySweepFromTheClientTest.identity(),
        PLAN,
        measured,
        DelaySweepAnswerTest.DONE,
        DelaySweepFromTheClientTest.CFG);
  }

  @Test
  void eachCellIsReadAtTheHighestStepItsRampSustainedNeverAtTheCollapse() {
    DelaySweepReport r = sweep(PointRampSweepTest::ramp);
    assertThat(r.cells()).allMatch(DelaySweepCell::ceilingUsed);
    assertThat(r.cells()).allMatch(c -> c.pointRamp() != null);
    for (DelaySweepCell c : r.cells()) {
      double truth = ceiling(c.planned().addedDelayMs());
      // At most the truth and within one step (x 1.1) below it; a collapsed step (a fifth of the
      // truth) is never the reading.
      assertThat(c.ceilingPerS()).isLessThanOrEqualTo(truth).isGreaterThan(truth / 1.1);
      assertThat(c.cell().offeredPerS()).isEqualTo(c.ceilingPerS());
      CeilingRamp.Step last = c.pointRamp().steps().get(c.pointRamp().steps().size() - 1);
      assertThat(last.offeredPerS()).isGreaterThan(truth);
      assertThat(c.pointRamp().collapsed()).isTrue();
    }
    assertThat(r.fit().roundTripsPerEvent().value())
        .isCloseTo(2.89, org.assertj.core.data.Offset.offset(0.01));
    assertThat(r.wireTurnsPerOkTrue()).isEqualTo(3.0);
  }

  /**
   * The partner, what the plan replaced: the same relay read at one saturating offer, 1.5 x its
   * ceiling at zero added delay (300/s), answers a fifth of its ceiling at every delay. Read as a
   * ceiling, that collapse gives a line five times too steep (15 round trips, not 3): which is why
   * a collapsed step is never read and a fixed offer is not used on such a relay.
   */
  @Test
  void readAtOneSaturatingOfferTheCollapseWouldBeAFiveTimesSteeperLine() {
    double[] x = {0, 1, 2, 3};
    double[] y = new double[4];
    for (int i = 0; i < 4; i++) {
      y[i] = 1000 / step(300, ceiling(x[i])).answeredPerS();
    }
    double slope = (y[3] - y[0]) / 3;
    assertThat(slope).isCloseTo(15.0, org.assertj.core.data.Offset.offset(0.1));
  }

  /**
   * A cell whose ramp collapsed before it sustained a step (the relay at d far above what it holds)
   * is not a point: it is left out with the ramp's reason named, never read as a low ceiling, and
   * the answer's tally names it.
   */
  @Test
  void aCellWhoseRampCollapsedFromItsFirstStepIsLeftOutWithItsReason() {
    CeilingRamp dead =
        CeilingRamp.of(
            RULE,
            List.of(
                new CeilingRamp.Step(40, WINDOW_S, 0.3, 3, 0, 400, null),
                new CeilingRamp.Step(44, WINDOW_S, 0.2, 2, 0, 440, null)));
    assertThat(dead.ceilingPerS()).isNull();
    DelaySweepReport r = sweep(d -> d == 3.0 ? dead : ramp(d));
    List<DelaySweepCell> at3 =
        r.cells().stream().filter(c -> c.planned().addedDelayMs() == 3.0).toList();
    assertThat(at3)
        .allSatisfy(
            c -> {
              assertThat(c.ceilingUsed()).isFalse();
              assertThat(c.notUsed())
                  .isEqualTo("its ramp at this delay collapsed before any step was sustained");
            });
    assertThat(r.cells().stream().filter(DelaySweepCell::ceilingUsed)).hasSize(9);
    assertThat(DelaySweepAnalysis.whyUnused(r.cells()))
        .contains("its ramp at this delay collapsed before any step was sustained in 3");
  }

  /**
   * The plan and every cell's ramp go into the file and come back; a cell stored with a step its
   * ramp's ceiling was not read from (here: another delay's ramp) is named by the file's reader.
   */
  @Test
  void theRampsSurviveTheFileAndACellAtTheWrongStepIsNamed() throws Exception {
    DelaySweepReport r = sweep(PointRampSweepTest::ramp);
    String json = Json.mapper().writeValueAsString(r);
    DelaySweepReport back = Json.read(json, "point-ramps.json", DelaySweepReport.class);
    assertThat(back.plan().pointRamp()).isEqualTo(PLAN.pointRamp());
    assertThat(back.cells().get(0).pointRamp()).isEqualTo(r.cells().get(0).pointRamp());
    assertThat(DelaySweepFile.problems(back)).isEmpty();

    com.fasterxml.jackson.databind.node.ObjectNode tree = Json.mapper().valueToTree(back);
    // Cell 0 stored with the ramp of a cell at another delay: its step is not that ramp's.
    int other = 1;
    while (back.cells().get(other).planned().addedDelayMs()
        == back.cells().get(0).planned().addedDelayMs()) {
      other++;
    }
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("cells").get(0))
        .set("point_ramp", tree.get("cells").get(other).get("point_ramp").deepCopy());
    DelaySweepReport bad =
        Json.read(Json.mapper().writeValueAsString(tree), "edited.json", DelaySweepReport.class);
    assertThat(DelaySweepFile.problems(bad))
        .anySatisfy(p -> assertThat(p).contains("the step its ramp's ceiling was read from"));
  }
}
