package dev.ceiling.verdict;

import java.util.Objects;

/**
 * One offered rate: both arms summarized, and the comparison when the rate is comparable.
 *
 * @param offeredPerS the rate, events/s
 * @param treatment the treatment arm's evidence cells
 * @param control the control arm's evidence cells, or null when the control was skipped
 * @param comparable true when each arm has at least min_cells_per_arm evidence cells
 * @param notComparableReason why not, or null when comparable
 * @param difference the comparison, or null when not comparable
 * @param separated true when Holm rejects "control - treatment &lt;= min_difference" at this rate
 */
public record RateRow(
    double offeredPerS,
    ArmStats treatment,
    ArmStats control,
    boolean comparable,
    String notComparableReason,
    Difference difference,
    boolean separated) {
  public RateRow {
    Objects.requireNonNull(treatment, "treatment must not be null");
    if (comparable != (notComparableReason == null) || comparable != (difference != null)) {
      throw new IllegalArgumentException(
          "a comparable row has a difference and no reason, and vice versa; got comparable="
              + comparable
              + " reason="
              + notComparableReason);
    }
    if (separated && !comparable) {
      throw new IllegalArgumentException("a row that is not comparable cannot be separated");
    }
  }
}
