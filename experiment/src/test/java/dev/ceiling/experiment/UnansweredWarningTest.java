package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.DrainTimeout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The warning after a client-side cell whose drain gave up with events still owed names the cell it
 * excludes, or says that nothing is excluded because what runs next starts on a fresh relay (where
 * an earlier wording named "the next cell" even when the next cell belonged to the other arm).
 */
class UnansweredWarningTest {
  @Test
  void aCellFollowedInItsArmNamesTheCellItExcludes() {
    String w = SweepRunner.unansweredWarning(3, 264, 3.0, 4);

    assertThat(w)
        .isEqualTo(
            "cell 3: 264 events still had no OK after waiting 3 s: the relay dropped them or is"
                + " still working; cell 4 starts on that backlog and is excluded (DRAIN_TIMEOUT)");
    // And that cell is the one the drain's record marks: the backlog it starts on is recorded.
    DrainTimeout carried = DrainWait.unanswered(264, Duration.ofSeconds(3));
    assertThat(carried).isNotNull();
    assertThat(carried.outstandingEvents()).isEqualTo(264.0);
  }

  @Test
  void partnerTheArmsLastCellExcludesNothingAndSaysTheNextRunsOnAFreshRelay() {
    String w = SweepRunner.unansweredWarning(8, 12, 60.0, null);

    assertThat(w)
        .isEqualTo(
            "cell 8: 12 events still had no OK after waiting 60 s: the relay dropped them or is"
                + " still working; this arm's sweep has no further cell, so nothing is excluded"
                + " for it (a next arm or round starts on a fresh relay)");
    assertThat(w).doesNotContain("DRAIN_TIMEOUT").doesNotContain("cell 9");
    // Nothing owed: no backlog is carried to a next cell.
    assertThat(DrainWait.unanswered(0, Duration.ofSeconds(3))).isNull();
  }
}
