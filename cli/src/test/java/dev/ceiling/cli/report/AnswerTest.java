package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.FailureKind;
import dev.ceiling.verdict.VerdictConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The answer's words for each kind of verdict, each beside a case that must be told in different
 * words: a sentence builder that printed one fixed line, or ignored a figure, fails its partner.
 */
class AnswerTest {
  static final List<Double> RATES = List.of(100.0, 200.0, 300.0);
  static final double DURATION_S = 10.0;
  static final ExperimentIdentity ID = HalfRuns.identity(RATES, 3, DURATION_S);
  static final double[][] FLAT = {{1.0, 0.99, 1.0}, {1.0, 0.99, 1.0}, {1.0, 0.99, 1.0}};
  static final double[][] FALLS = {{1.0, 1.0, 1.0}, {0.86, 0.85, 0.87}, {0.59, 0.60, 0.58}};

  static List<Cell> cells(String arm, double[][] ratios, UnaryOperator<CellBuilder> edit) {
    List<Cell> out = new ArrayList<>();
    int seq = 0;
    for (int i = 0; i < RATES.size(); i++) {
      for (int r = 0; r < ratios[i].length; r++) {
        out.add(
            edit.apply(HalfRuns.cell(arm, RATES.get(i), r, seq++, DURATION_S, ratios[i][r]))
                .build());
      }
    }
    return out;
  }

  static ExperimentReport report(HalfRun on, HalfRun off) throws Exception {
    return ExperimentReport.of(Combine.combine(on, off), VerdictConfig.defaults());
  }

  static ExperimentReport report(double[][] on, double[][] off) throws Exception {
    return report(
        HalfRuns.half(ID, HalfRuns.ON, cells(HalfRuns.ON, on, b -> b)),
        HalfRuns.half(ID, HalfRuns.OFF, cells(HalfRuns.OFF, off, b -> b)));
  }

  static CellBuilder generatorBoundAt(CellBuilder b, double rate) {
    Cell probe = b.build();
    return probe.offeredPerS() == rate
        ? b.generatorBound(true).generatorBoundReason("target 1: send lag p99 30 ms > bound 10 ms")
        : b;
  }

  @Test
  void establishedSaysYesWithTheFiguresAndThatTheControlNeverSaturated() throws Exception {
    ExperimentReport r = report(FALLS, FLAT);
    assertThat(r.verdict().established()).isTrue();
    Answer a = Answer.of(r);
    assertThat(a.sentence())
        .isEqualTo(
            "Yes: with 'on', accepted/offered falls to 0.86 at 200/s and 0.59 at 300/s, while 'off'"
                + " holds 1.00 up to 300/s (separated at 200/s and 300/s, family error 5%).");
    assertThat(a.nextSteps())
        .containsExactly(
            "the control 'off' never saturated: its own ceiling lies above 300/s; add higher"
                + " rates (--rates) to find it.");
    // Partner: a control that itself falls at 300/s is described as it is, with no such step.
    double[][] controlFalls = {{1.0, 0.99, 1.0}, {1.0, 0.99, 1.0}, {0.90, 0.91, 0.90}};
    Answer partner = Answer.of(report(FALLS, controlFalls));
    assertThat(partner.sentence())
        .startsWith("Yes: with 'on'")
        .contains("while 'off' stays within 0.90-1.00 up to 300/s");
    assertThat(partner.nextSteps()).noneMatch(s -> s.contains("never saturated"));
  }

  @Test
  void notSeparatedSaysNoWithTheTopRateAndTheSmallestAdjustedP() throws Exception {
    ExperimentReport r = report(FLAT, FLAT);
    assertThat(r.verdict().failures())
        .anySatisfy(f -> assertThat(f.kind()).isEqualTo(FailureKind.NOT_SEPARATED));
    Answer a = Answer.of(r);
    assertThat(a.sentence())
        .startsWith(
            "No: 'on' was not shown to limit ingest: at 300/s, the highest rate compared,"
                + " accepted/offered is 1.00 with 'on' and 1.00 with 'off' (")
        .endsWith(", family error 5%).");
    assertThat(a.nextSteps())
        .anySatisfy(s -> assertThat(s).startsWith("'on' kept up at every rate compared, up to"));
    // Partner: a noisy fall at 300/s that does not separate asks for repeats, not rates.
    double[][] noisy = {{1.0, 0.99, 1.0}, {1.0, 0.99, 1.0}, {0.97, 0.90, 0.99}};
    Answer partner = Answer.of(report(noisy, FLAT));
    assertThat(partner.sentence()).startsWith("No: ").contains("0.95 with 'on'");
    assertThat(partner.nextSteps())
        .anySatisfy(
            s ->
                assertThat(s)
                    .startsWith("'on' accepted less than 'off' at 300/s (by 0.043)")
                    .endsWith("more repeats (--repeats) narrow the intervals."))
        .noneMatch(s -> s.contains("kept up"));
  }

  @Test
  void exclusionsSayWhatWasExcludedAndAGeneratorBoundRateNamesTheRemedy() throws Exception {
    UnaryOperator<CellBuilder> allBound =
        b -> b.generatorBound(true).generatorBoundReason("target 1: send lag p99 30 ms > 10 ms");
    ExperimentReport r =
        report(
            HalfRuns.half(ID, HalfRuns.ON, cells(HalfRuns.ON, FALLS, allBound)),
            HalfRuns.half(ID, HalfRuns.OFF, cells(HalfRuns.OFF, FLAT, allBound)));
    Answer a = Answer.of(r);
    assertThat(a.sentence())
        .isEqualTo(
            "No answer: too much of this run was excluded to compare the arms (18 of 18 cells"
                + " excluded: GENERATOR_BOUND 18).");
    assertThat(a.nextSteps())
        .hasSize(3)
        .allSatisfy(s -> assertThat(s).contains("was excluded as generator-bound"))
        .anySatisfy(s -> assertThat(s).startsWith("every cell at 300/s"));
    // Partner: only 300/s generator-bound; the rest compares, and only 300/s gets the step.
    ExperimentReport some =
        report(
            HalfRuns.half(
                ID, HalfRuns.ON, cells(HalfRuns.ON, FALLS, b -> generatorBoundAt(b, 300))),
            HalfRuns.half(
                ID, HalfRuns.OFF, cells(HalfRuns.OFF, FLAT, b -> generatorBoundAt(b, 300))));
    Answer partner = Answer.of(some);
    assertThat(partner.sentence()).startsWith("Yes: ").contains("0.86 at 200/s");
    assertThat(partner.nextSteps())
        .filteredOn(s -> s.contains("generator-bound"))
        .containsExactly(
            "every cell at 300/s was excluded as generator-bound: the generator could not keep"
                + " the schedule; give it cores of its own or more processes (--generators N,"
                + " docs/SCALE_OUT.md).");
  }

  @Test
  void aCellExcludedForAFailedLinkIsNamedWithTheLinkAndWhenInTheNextSteps() throws Exception {
    dev.ceiling.core.model.LinkHealth down =
        new dev.ceiling.core.model.LinkHealth("cache", "127.0.0.1:6379", 9, 7, 2, 0, 0.0, 1.5);
    ExperimentReport r =
        report(
            HalfRuns.half(
                ID,
                HalfRuns.ON,
                cells(
                    HalfRuns.ON,
                    FALLS,
                    b ->
                        b.build().offeredPerS() == 300 && b.build().repeat() == 1
                            ? b.links(List.of(down))
                            : b)),
            HalfRuns.half(ID, HalfRuns.OFF, cells(HalfRuns.OFF, FLAT, b -> b)));
    Answer a = Answer.of(r);
    assertThat(a.nextSteps())
        .filteredOn(s -> s.contains("link failed"))
        .singleElement()
        .satisfies(
            s ->
                assertThat(s)
                    .startsWith("cell on@300/s#1 ")
                    .contains(
                        "was excluded because a link failed: link 'cache': 7 connections refused"
                            + " by 127.0.0.1:6379, 2 connections dropped by it, the first 1.5 s"
                            + " into the cell; check that service and measure again."));
    // The console's summary and report.html say it too, where the user reads the answer.
    String step =
        a.nextSteps().stream().filter(s -> s.contains("link failed")).findFirst().orElseThrow();
    assertThat(Summary.text(r)).contains("next: " + step);
    assertThat(HtmlReport.render(r))
        .contains("<h2>What this run could not see</h2>")
        .contains(HtmlReport.esc("C" + step.substring(1)))
        .contains(HtmlReport.esc("link 'cache': 7 connections refused by 127.0.0.1:6379"));
    // Partner: the same run with the link healthy names no link, in words, console or page.
    ExperimentReport healthy = report(FALLS, FLAT);
    assertThat(Answer.of(healthy).nextSteps()).noneMatch(s -> s.contains("link"));
    assertThat(Summary.text(healthy)).doesNotContain("a link failed");
    assertThat(HtmlReport.render(healthy)).doesNotContain("a link failed");
  }

  @Test
  void anIncompleteRunSaysNoAnswerYetAndHowToContinue() throws Exception {
    List<Cell> onCells = cells(HalfRuns.ON, FALLS, b -> b).subList(0, 5);
    HalfRun partial =
        new HalfRun(
            SchemaVersion.CURRENT,
            ID,
            HalfRuns.ON,
            HalfRuns.rig(HalfRuns.ON),
            HalfRuns.T0,
            HalfRuns.T0.plusSeconds(600),
            false,
            "interrupted (Ctrl-C)",
            onCells);
    ExperimentReport r =
        report(partial, HalfRuns.half(ID, HalfRuns.OFF, cells(HalfRuns.OFF, FLAT, b -> b)));
    Answer a = Answer.of(r);
    assertThat(a.sentence()).startsWith("No answer yet: the run is incomplete. ");
    assertThat(a.nextSteps())
        .anySatisfy(s -> assertThat(s).startsWith("continue the run with `ceiling experiment"));
    // Partner: the same run complete answers the question and offers no resume.
    Answer whole = Answer.of(report(FALLS, FLAT));
    assertThat(whole.sentence()).doesNotContain("incomplete");
    assertThat(whole.nextSteps()).noneMatch(s -> s.contains("--resume"));
  }

  /** The treatment's worker busy and steady at 300/s, completing 288, 290 and 292 per second. */
  static CellBuilder busyAt300(CellBuilder b) {
    Cell probe = b.build();
    if (probe.offeredPerS() != 300) {
      return b;
    }
    return b.auditCompletedPerS(288.0 + 2 * probe.repeat())
        .auditBusyFraction(0.99)
        .outstandingDelta(0L);
  }

  @Test
  void theWorkerRateIsStatedWhenTheVerdictHasOne() throws Exception {
    ExperimentReport r =
        report(
            HalfRuns.half(ID, HalfRuns.ON, cells(HalfRuns.ON, FALLS, AnswerTest::busyAt300)),
            HalfRuns.half(ID, HalfRuns.OFF, cells(HalfRuns.OFF, FLAT, b -> b)));
    assertThat(r.verdict().workerRate()).isNotNull();
    assertThat(Answer.of(r).sentence())
        .startsWith("Yes: with 'on'")
        .matches(".*\\. The audit worker completes 290/s \\[2\\d\\d, 29\\d\\]\\.$");
    // Partner: the same run without a busy worker states no worker rate.
    assertThat(Answer.of(report(FALLS, FLAT)).sentence()).doesNotContain("worker");
  }

  @Test
  void aModelRunSaysItIsNeverEvidence() throws Exception {
    ExperimentReport model =
        dev.ceiling.verdict.Model.report(
            new dev.ceiling.verdict.ModelConfig(
                List.of(250.0, 500.0, 750.0, 1000.0),
                4,
                3,
                200,
                550,
                1,
                dev.ceiling.verdict.ModelConfig.SEED_JITTER_STEP),
            VerdictConfig.defaults());
    assertThat(Answer.of(model).sentence()).containsIgnoringCase("model output, never evidence");
    // Partner: measured cells are not called model output.
    assertThat(Answer.of(report(FALLS, FLAT)).sentence()).doesNotContainIgnoringCase("model");
  }

  @Test
  void theTextIsTheSentenceThenOneLinePerStep() throws Exception {
    Answer a = new Answer("Yes: x.", List.of("one.", "two."));
    assertThat(a.text()).isEqualTo("Yes: x.\nnext: one.\nnext: two.\n");
    assertThat(new Answer("No: y.", List.of()).text()).isEqualTo("No: y.\n");
  }
}
