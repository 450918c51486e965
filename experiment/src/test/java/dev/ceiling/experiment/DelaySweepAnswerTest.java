package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.verdict.CountCheck;
import dev.ceiling.verdict.DelayPoint;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.SensitivityFit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep's answer leads with k and the wire count, or says why there is no count. */
class DelaySweepAnswerTest {
  static final DelaySweepPlan PLAN =
      DelaySweepPlan.builder()
          .link("db")
          .delaysMs(List.of(0.0, 1.0, 2.0, 3.0))
          .repeats(3)
          .offeredPerS(300)
          .offerRule("given")
          .perPointOffer(null)
          .durationS(3)
          .seed(1)
          .level(0.95)
          .lackOfFitAlpha(0.05)
          .expectedRoundTrips(6.0)
          .margin(0.5)
          .build();

  static final DelaySweepAnalysis.Progress DONE =
      new DelaySweepAnalysis.Progress(Instant.EPOCH, Instant.EPOCH, true, null, List.of());

  /** 1 / C = 2 + k d ms per event, with a small alternating scatter at each delay. */
  static List<DelayPoint> line(double k, boolean plateau) {
    List<DelayPoint> out = new ArrayList<>();
    for (double d : PLAN.delaysMs()) {
      for (int r = 0; r < 3; r++) {
        double ms = (plateau && d < 1.5 ? 11 : 2 + k * d) + 0.01 * (r - 1);
        out.add(new DelayPoint(d, r, 1000 / ms));
      }
    }
    return out;
  }

  @Test
  void aLineThatHoldsLeadsWithKTheWireCountAndTheCountCheck() {
    SensitivityFit fit = Sensitivity.fit(line(6, false), 0.95, 0.05);
    CountCheck count = Sensitivity.againstCount(fit, 6, 0.5, 0.05);
    String a = DelaySweepAnalysis.answer(PLAN, fit, null, count, 6.0, DONE);
    assertThat(a)
        .startsWith("the audit path makes 6.0 [")
        .contains("sequential round trips per event on link 'db' (wire count 6.00)")
        .contains("consistent with the declared 6 round trips per event");
  }

  @Test
  void aPlateauIsNotACountAndNamesWhereItDeparts() {
    SensitivityFit fit = Sensitivity.fit(line(6, true), 0.95, 0.05);
    String a = DelaySweepAnalysis.answer(PLAN, fit, null, null, 6.0, DONE);
    assertThat(a)
        .startsWith("k = ")
        .contains("is not a count of round trips")
        .contains("the line does not hold")
        .contains("departing delays");
  }

  @Test
  void noFitSaysWhyAndAPartialRunSaysSo() {
    DelaySweepAnalysis.Progress partial =
        new DelaySweepAnalysis.Progress(
            Instant.EPOCH, null, false, "stopped after 2 of 12 cells", List.of());
    String a = DelaySweepAnalysis.answer(PLAN, null, "no line to fit", null, null, partial);
    assertThat(a)
        .isEqualTo(
            "no round-trip count on link 'db': no line to fit (partial: stopped after 2 of 12"
                + " cells)");
  }

  /**
   * Why cells were not used, tallied by reason: each excluding problem's kind, or, for a cell kept
   * as evidence but not a point, that it was not steady or its worker not busy. On the cells of a
   * recorded real sweep (every one used), two of them made unused.
   */
  @Test
  void theCellsNotUsedAreTalliedByReason() throws Exception {
    List<DelaySweepCell> cells;
    try (var in = DelaySweepAnswerTest.class.getResourceAsStream("sensitivity/three-delays.json")) {
      String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      cells =
          dev.ceiling.core.json.Json.read(text, "three-delays.json", DelaySweepReport.class)
              .cells();
    }
    assertThat(DelaySweepAnalysis.whyUnused(cells)).as("every cell used").isEmpty();
    List<DelaySweepCell> some = new ArrayList<>(cells);
    DelaySweepCell limited = cells.get(0);
    some.set(
        0,
        limited.toBuilder()
            .use(dev.ceiling.verdict.CellUse.EXCLUDED)
            .steady(true)
            .busy(true)
            .ceilingUsed(false)
            .problems(
                List.of(
                    new dev.ceiling.verdict.CellProblem(
                        dev.ceiling.verdict.ProblemKind.ADMISSION_QUOTA, "quota moved", true),
                    new dev.ceiling.verdict.CellProblem(
                        dev.ceiling.verdict.ProblemKind.NOTICES, "NOTICE frames", true)))
            .build());
    DelaySweepCell idle = cells.get(1);
    some.set(
        1,
        idle.toBuilder().steady(true).busy(false).ceilingUsed(false).problems(List.of()).build());
    assertThat(DelaySweepAnalysis.whyUnused(some))
        .isEqualTo(" (not used: ADMISSION_QUOTA in 1, NOTICES in 1, worker not busy in 1)");
  }
}
