package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.SensitivityHtmlTest.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ceiling.experiment.SensitivityContrast;
import dev.ceiling.experiment.SensitivityPlan;
import dev.ceiling.experiment.SensitivityReport;
import dev.ceiling.verdict.Tost;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@code contrast.json} says about two arms, from reports recorded by real sweeps (the
 * fixtures of SensitivityHtmlTest): the comparison only once both arms have a line, "the same round
 * trips" only when the slopes' TOST is inside the plan's margin, and the reason whenever an arm is
 * missing.
 */
class SensitivityContrastAnswerTest {
  private static final Map<String, String> OFF = Map.of("synchronous_commit", "off");

  @Test
  void twoArmsAreTheSameRoundTripsOnlyWhenTheSlopesAreInsideTheMargin() throws Exception {
    SensitivityReport arm = fixture("three-delays.json");
    // Margin 0.5 (the recorded plan's): k's interval, [5.6, 14.3] in each arm, is far wider.
    SensitivityContrast tight = SensitivityContrast.of(arm.plan(), OFF, arm, arm, null);
    assertThat(tight.comparison().slopeDifference().estimate()).isCloseTo(0, within(1e-12));
    assertThat(tight.comparison().slopeDifference().reading()).isEqualTo(Tost.Reading.INCONCLUSIVE);
    assertThat(tight.established()).isFalse();
    assertThat(tight.answer())
        .startsWith(
            "the contrast {synchronous_commit=off}: round trips per event not shown to agree;"
                + " per event at zero added delay, base - contrast = 0.000 ms [");
    // Partner: the same arms against a margin of 5 round trips, which the interval fits inside.
    SensitivityPlan wide = withMargin(arm.plan(), 5);
    SensitivityContrast loose = SensitivityContrast.of(wide, OFF, arm, arm, null);
    assertThat(loose.comparison().slopeDifference().reading()).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(loose.established()).isTrue();
    assertThat(loose.answer()).contains(": the same round trips per event in both arms;");
  }

  @Test
  void aMissingArmOrLineIsNamedAndNothingIsCompared() throws Exception {
    SensitivityReport arm = fixture("three-delays.json");
    SensitivityReport noFit = fixture("no-fit.json");
    SensitivityContrast declared = SensitivityContrast.of(arm.plan(), OFF, null, null, null);
    assertThat(declared.answer())
        .isEqualTo(
            "the contrast {synchronous_commit=off} is declared; the base arm has not measured a"
                + " cell yet");
    SensitivityContrast notRun =
        SensitivityContrast.of(arm.plan(), OFF, arm, null, "the base arm did not complete");
    assertThat(notRun.answer())
        .startsWith(
            "the contrast {synchronous_commit=off} did not run: the base arm did not complete;"
                + " the base arm: the audit path makes");
    SensitivityContrast lineless = SensitivityContrast.of(arm.plan(), OFF, arm, noFit, null);
    assertThat(lineless.comparison()).isNull();
    assertThat(lineless.answer())
        .startsWith(
            "no comparison with the contrast {synchronous_commit=off}: the contrast arm has no"
                + " line (");
    for (SensitivityContrast c : new SensitivityContrast[] {declared, notRun, lineless}) {
      assertThat(c.established()).as(c.answer()).isFalse();
    }
  }

  private static SensitivityPlan withMargin(SensitivityPlan p, double margin) {
    return new SensitivityPlan(
        p.link(),
        p.delaysMs(),
        p.repeats(),
        p.offeredPerS(),
        p.offerRule(),
        p.perPointOffer(),
        p.durationS(),
        p.seed(),
        p.level(),
        p.lackOfFitAlpha(),
        p.expectedRoundTrips(),
        margin,
        p.cells());
  }
}
