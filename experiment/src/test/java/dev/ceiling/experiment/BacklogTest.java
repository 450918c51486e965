package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a backlog counts as drained: each figure back to its baseline, or not exposed. */
class BacklogTest {
  static final Backlog BASELINE = new Backlog(2.0, 10.0);

  @Test
  void backToTheBaselineInBothFiguresIsDrained() {
    assertThat(new Backlog(2.0, 10.0).drainedTo(BASELINE)).isTrue();
    assertThat(new Backlog(0.0, 3.0).drainedTo(BASELINE)).isTrue();
    // The partners: either figure above its baseline holds the drain up.
    assertThat(new Backlog(3.0, 10.0).drainedTo(BASELINE)).isFalse();
    assertThat(new Backlog(2.0, 11.0).drainedTo(BASELINE)).isFalse();
  }

  @Test
  void aFigureThatIsNotExposedCannotHoldTheDrainUp() {
    assertThat(new Backlog(null, 10.0).drainedTo(BASELINE)).isTrue();
    assertThat(new Backlog(2.0, 50.0).drainedTo(new Backlog(2.0, null))).isTrue();
    assertThat(new Backlog(null, 11.0).drainedTo(BASELINE)).isFalse();
  }
}
