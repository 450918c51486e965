package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.DelaySweepHtmlTest.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ceiling.experiment.DelaySweepContrast;
import dev.ceiling.experiment.DelaySweepPlan;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.verdict.Tost;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@code contrast.json} says about two arms, from reports recorded by real sweeps (the
 * fixtures of DelaySweepHtmlTest): the comparison only once both arms have a line, "the same round
 * trips" only when the slopes' TOST is inside the plan's margin, and the reason whenever an arm is
 * missing.
 */
class DelaySweepContrastAnswerTest {
  private static final Map<String, String> OFF = Map.of("synchronous_commit", "off");

  @Test
  void twoArmsAreTheSameRoundTripsOnlyWhenTheSlopesAreInsideTheMargin() throws Exception {
    DelaySweepReport arm = fixture("three-delays.json");
    // Margin 0.5 (the recorded plan's): k's interval, [5.6, 14.3] in each arm, is far wider.
    DelaySweepContrast tight = DelaySweepContrast.of(arm.plan(), OFF, arm, arm, null);
    assertThat(tight.comparison().slopeDifference().estimate()).isCloseTo(0, within(1e-12));
    assertThat(tight.comparison().slopeDifference().reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(tight.established()).isFalse();
    assertThat(tight.answer())
        .startsWith(
            "the contrast {synchronous_commit=off}: round trips per event not shown to agree;"
                + " per event at zero added delay, base - contrast = 0.000 ms [");
    // Partner: the same arms against a margin of 5 round trips, which the interval fits inside.
    DelaySweepPlan wide = withMargin(arm.plan(), 5);
    DelaySweepContrast loose = DelaySweepContrast.of(wide, OFF, arm, arm, null);
    assertThat(loose.comparison().slopeDifference().reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(loose.established()).isTrue();
    assertThat(loose.answer()).contains(": the same round trips per event in both arms;");
  }

  @Test
  void aMissingArmOrLineIsNamedAndNothingIsCompared() throws Exception {
    DelaySweepReport arm = fixture("three-delays.json");
    DelaySweepReport noFit = fixture("no-fit.json");
    DelaySweepContrast declared = DelaySweepContrast.of(arm.plan(), OFF, null, null, null);
    assertThat(declared.answer())
        .isEqualTo(
            "the contrast {synchronous_commit=off} is declared; the base arm has not measured a"
                + " cell yet");
    DelaySweepContrast notRun =
        DelaySweepContrast.of(arm.plan(), OFF, arm, null, "the base arm did not complete");
    assertThat(notRun.answer())
        .startsWith(
            "the contrast {synchronous_commit=off} did not run: the base arm did not complete;"
                + " the base arm: the audit path makes");
    DelaySweepContrast lineless = DelaySweepContrast.of(arm.plan(), OFF, arm, noFit, null);
    assertThat(lineless.comparison()).isNull();
    assertThat(lineless.answer())
        .startsWith(
            "no comparison with the contrast {synchronous_commit=off}: the contrast arm has no"
                + " line (");
    for (DelaySweepContrast c : new DelaySweepContrast[] {declared, notRun, lineless}) {
      assertThat(c.established()).as(c.answer()).isFalse();
    }
  }

  private static DelaySweepPlan withMargin(DelaySweepPlan p, double margin) {
    return p.toBuilder().margin(margin).build();
  }
}
