package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChecksTest {
  @Test
  void everyBrokenRuleIsReportedAtOnce() {
    // The mutant partner is a check that stops at the first problem: it would name only "arm".
    assertThatThrownBy(() -> new CellKey(" ", -1, -2, -3, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "arm must be non-blank, got ' '; offered_per_s must be a finite number > 0, got -1.0;"
                + " repeat must be >= 0, got -2; sequence must be >= 0, got -3");
  }

  @Test
  void oneProblemReadsAsItself() {
    assertThatThrownBy(() -> new CellKey("a", 1, -2, 0, false))
        .hasMessage("repeat must be >= 0, got -2");
  }

  @Test
  void nothingBrokenThrowsNothing() {
    Checks c =
        new Checks()
            .notBlank("a", "x")
            .between("b", 5, 1, 10, "s")
            .nonNegativeOrNull("c", (Double) null);
    assertThat(c.ok()).isTrue();
    c.orThrow();
    assertThat(c.between("b", 11, 1, 10, "s").problems())
        .containsExactly("b must be in [1, 10] s, got 11");
  }
}
