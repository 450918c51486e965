package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * A cell kept out of the evidence, with every reason (including annotations that alone would not
 * have excluded it).
 *
 * @param cell which cell
 * @param reasons every problem found, at least one of which excludes
 */
public record ExcludedCell(CellRef cell, List<CellProblem> reasons) {
  public ExcludedCell {
    Objects.requireNonNull(cell, "cell must not be null");
    reasons = List.copyOf(reasons);
    if (reasons.stream().noneMatch(CellProblem::excludesEvidence)) {
      throw new IllegalArgumentException(
          "reasons must include at least one excluding problem, got " + reasons);
    }
  }
}
