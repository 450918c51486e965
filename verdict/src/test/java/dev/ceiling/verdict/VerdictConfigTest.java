package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class VerdictConfigTest {
  @Test
  void defaultsDescribeThemselvesInOneLineInAnyLocale() {
    Locale before = Locale.getDefault();
    try {
      for (Locale l : new Locale[] {Locale.ROOT, Locale.GERMANY, new Locale("ar", "EG")}) {
        Locale.setDefault(l);
        assertThat(VerdictConfig.defaults().describe())
            .isEqualTo(
                "family_alpha=0.05 steady_tolerance=0.05 busy_threshold=0.95 min_headroom=1.5"
                    + " min_cells_per_arm=2 min_difference=0.0 knee_epsilon=0.02");
      }
    } finally {
      Locale.setDefault(before);
    }
  }

  @Test
  void everyBrokenRuleIsReportedAtOnce() {
    assertThatThrownBy(() -> new VerdictConfig(0.0, 1.0, 0.0, 0.5, 1, -0.1, 1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "family_alpha must be in (0, 0.5], got 0.0; steady_tolerance must be in (0, 1), got"
                + " 1.0; busy_threshold must be in (0, 1], got 0.0; min_headroom must be a finite"
                + " number >= 1, got 0.5; min_cells_per_arm must be >= 2, got 1; min_difference"
                + " must be in [0, 1), got -0.1; knee_epsilon must be in (0, 1), got 1.0");
    assertThatThrownBy(() -> new VerdictConfig(Double.NaN, 0.05, 0.95, 1.5, 2, 0, 0.02))
        .hasMessage("family_alpha must be in (0, 0.5], got NaN");
  }
}
