package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.ExperimentIdentity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the verdict says, word for word where a looser sentence would claim more than the data. */
class VerdictWordsTest {
  static final List<Double> FOUR = List.of(100.0, 200.0, 300.0, 400.0);

  private static VerdictReport judge(ExperimentIdentity id, double[][] on, double[][] off) {
    return Verdict.evaluate(
        new CombinedRun(id, Fixtures.half(id, ON, on), Fixtures.half(id, OFF, off)),
        VerdictConfig.defaults());
  }

  @Test
  void aDipAtTheLastRateIsUnconfirmedNotANextRateThatRose() {
    ExperimentIdentity id = Fixtures.identity(FOUR, 3);
    double[][] off = Fixtures.constant(4, 3, 1.0);
    double[][] lastDip = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0.8, 0.81, 0.79}};
    String note = judge(id, lastDip, off).knee().note();
    assertThat(note)
        .contains("below at the last rate, 400/s, unconfirmed")
        .doesNotContain("the next rate did not stay below");
    // Mutant partner: a dip in the middle whose next rate tracks is a lone dip, in those words.
    double[][] midDip = {{1, 1, 1}, {0.8, 0.81, 0.79}, {1, 1, 1}, {1, 1, 1}};
    assertThat(judge(id, midDip, off).knee().note())
        .contains("lone dip(s) at 200/s (not a knee: the next rate did not stay below)")
        .doesNotContain("unconfirmed");
  }

  @Test
  void noComparableRateNamesOneRepeatOrAnEmptyHalf() {
    ExperimentIdentity one = Fixtures.identity(FOUR, 1);
    String msg =
        judge(one, Fixtures.constant(4, 1, 1.0), Fixtures.constant(4, 1, 1.0)).failures().stream()
            .filter(f -> f.kind() == FailureKind.NO_COMPARABLE_RATE)
            .findFirst()
            .orElseThrow()
            .message();
    assertThat(msg).contains("repeats = 1 per rate").doesNotContain("excluded");

    ExperimentIdentity three = Fixtures.identity(FOUR, 3);
    VerdictReport empty =
        Verdict.evaluate(
            new CombinedRun(
                three,
                Fixtures.half(three, ON, Fixtures.constant(4, 3, 1.0)),
                Fixtures.half(three, OFF, List.of())),
            VerdictConfig.defaults());
    assertThat(empty.failures())
        .filteredOn(f -> f.kind() == FailureKind.NO_COMPARABLE_RATE)
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("the 'off' half has no cells"));
  }
}
