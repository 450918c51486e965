package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The what-if's words, its refusals, and the ceiling interval's inversion, on fixed points. */
class WhatIfTest {
  /** 1 / C = 2 + 0.5 d ms per event, with a little scatter so the line has an interval. */
  private static final List<DelayPoint> SWEEP =
      List.of(
          new DelayPoint(0, 0, 1000 / 2.02),
          new DelayPoint(0, 1, 1000 / 1.98),
          new DelayPoint(2, 0, 1000 / 3.03),
          new DelayPoint(2, 1, 1000 / 2.97),
          new DelayPoint(4, 0, 1000 / 4.01),
          new DelayPoint(4, 1, 1000 / 3.99));

  @Test
  void aHoldoutOnTheLineReadsInsideAndTheWordsGiveBothFigures() {
    WhatIf w =
        Sensitivity.whatIf(
            SWEEP,
            1.5,
            List.of(new DelayPoint(1.5, 0, 1000 / 2.76), new DelayPoint(1.5, 1, 1000 / 2.74)),
            0.95);
    assertThat(w.placement()).isEqualTo(WhatIf.Placement.INSIDE);
    assertThat(w.predicted()).isCloseTo(1000 / 2.75, org.assertj.core.data.Offset.offset(3.0));
    assertThat(w.lower()).isLessThan(w.predicted());
    assertThat(w.upper()).isGreaterThan(w.predicted());
    assertThat(w.measured()).isCloseTo(1000 / 2.75, org.assertj.core.data.Offset.offset(1.0));
    assertThat(w.message())
        .startsWith("predicted ceiling 363")
        .contains("at 1.5 ms; measured 363")
        .endsWith(": inside");
  }

  @Test
  void partnerAHoldoutOffTheLineReadsOutsideAndSaysTheLineDoesNotHold() {
    // The relay at no added delay runs at 400/s (2.5 ms per event), not the line's 500/s.
    WhatIf w =
        Sensitivity.whatIf(
            SWEEP.subList(2, 6),
            0,
            List.of(new DelayPoint(0, 0, 1000 / 2.51), new DelayPoint(0, 1, 1000 / 2.49)),
            0.95);
    assertThat(w.placement()).isEqualTo(WhatIf.Placement.OUTSIDE);
    assertThat(w.message()).contains(": outside, the line does not hold out to 0 ms");
  }

  /**
   * The check is made where the holdout really was (the declared delay plus the proxy's lateness),
   * a delay like 1.4999999 or 0.000221869 ms: the words give it to 2 decimals. The partner: a delay
   * that needs its 2 decimals keeps them.
   */
  @Test
  void theWordsGiveTheDelayToTwoDecimals() {
    double late = 1.4999999;
    WhatIf w =
        Sensitivity.whatIf(
            SWEEP,
            late,
            List.of(new DelayPoint(late, 0, 1000 / 2.76), new DelayPoint(late, 1, 1000 / 2.74)),
            0.95);
    assertThat(w.atDelayMs()).isEqualTo(late);
    assertThat(w.message()).contains(") at 1.5 ms; measured").doesNotContain("1.4999");
    double atZero = 0.00022186943649625377;
    WhatIf outside =
        Sensitivity.whatIf(
            SWEEP.subList(2, 6),
            atZero,
            List.of(new DelayPoint(atZero, 0, 1000 / 2.51), new DelayPoint(atZero, 1, 1000 / 2.49)),
            0.95);
    assertThat(outside.message())
        .contains(") at 0 ms; measured")
        .endsWith(": outside, the line does not hold out to 0 ms")
        .doesNotContain("0.0002");
    WhatIf twoDecimals = Sensitivity.whatIf(SWEEP, 1.256, List.of(), 0.95);
    assertThat(twoDecimals.message()).contains(") at 1.26 ms;");
    assertThatThrownBy(() -> Sensitivity.whatIf(SWEEP, 6.123456, List.of(), 0.95))
        .hasMessageContaining("inside the swept delays [0, 4] ms, got 6.12 ms");
    assertThat(Fmt.delayMs(2.0)).isEqualTo("2");
    assertThat(Fmt.delayMs(0.005)).isEqualTo("0.01");
    assertThat(Fmt.delayMs(0.004)).isEqualTo("0");
  }

  @Test
  void withoutAHoldoutTheFigureIsSaidToBeUncheckedAndOnlyInsideTheSweep() {
    WhatIf w = Sensitivity.whatIf(SWEEP, 1, List.of(), 0.95);
    assertThat(w.placement()).isEqualTo(WhatIf.Placement.NOT_CHECKED);
    assertThat(w.measured()).isNull();
    assertThat(w.message()).endsWith("no holdout measured there: the line's, checked by nothing");
    assertThatThrownBy(() -> Sensitivity.whatIf(SWEEP, 6, List.of(), 0.95))
        .hasMessageContaining("inside the swept delays [0, 4] ms, got 6 ms");
  }

  @Test
  void everyBrokenRuleIsNamedAtOnce() {
    assertThatThrownBy(
            () ->
                Sensitivity.whatIf(
                    SWEEP.subList(0, 2), 1.5, List.of(new DelayPoint(2.5, 0, 300, 1.0)), 0.95))
        .hasMessageContaining("at least 3 points at 2 distinct delays")
        .hasMessageContaining("at the what-if's delay 1.5 ms, got one at 2.5 ms")
        .hasMessageContaining("weighted exactly when the fitted points are");
  }

  @Test
  void theLatencyLinePredictsInMilliseconds() {
    List<LatencyPoint> fit =
        List.of(
            new LatencyPoint(0, 0, 3.1),
            new LatencyPoint(0, 1, 2.9),
            new LatencyPoint(2, 0, 7.1),
            new LatencyPoint(2, 1, 6.9),
            new LatencyPoint(4, 0, 11.1),
            new LatencyPoint(4, 1, 10.9));
    WhatIf w =
        Sensitivity.latencyWhatIf(
            fit, 1, List.of(new LatencyPoint(1, 0, 5.0), new LatencyPoint(1, 1, 5.1)), 0.95);
    assertThat(w.line()).isEqualTo(WhatIf.Line.LATENCY);
    assertThat(w.predicted()).isCloseTo(5.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(w.placement()).isEqualTo(WhatIf.Placement.INSIDE);
    assertThat(w.message()).startsWith("predicted OK latency 5").contains(" ms [");
  }
}
