package dev.ceiling.verdict;

import java.util.Objects;

/**
 * One reason a cell is not (or not fully) evidence.
 *
 * @param kind the typed reason
 * @param message what was seen, with the figures, in plain words
 * @param excludesEvidence true when the cell must not enter the separation test or the worker rate;
 *     false for an annotation that only bars the cell from the worker-rate estimate
 */
public record CellProblem(ProblemKind kind, String message, boolean excludesEvidence) {
  public CellProblem {
    Objects.requireNonNull(kind, "kind must not be null");
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("message must be non-blank, got " + message);
    }
  }
}
