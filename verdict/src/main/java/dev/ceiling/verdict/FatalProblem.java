package dev.ceiling.verdict;

import java.util.Objects;

/**
 * A cell problem that fails the whole run (see {@link ProblemKind#fatal()}).
 *
 * @param cell the cell it was seen in
 * @param kind the problem's kind
 * @param message what was seen
 */
public record FatalProblem(CellRef cell, ProblemKind kind, String message) {
  public FatalProblem {
    Objects.requireNonNull(cell, "cell must not be null");
    Objects.requireNonNull(kind, "kind must not be null");
    if (!kind.fatal()) {
      throw new IllegalArgumentException("kind must be a fatal problem kind, got " + kind);
    }
    Objects.requireNonNull(message, "message must not be null");
  }
}
