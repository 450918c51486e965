package dev.ceiling.verdict;

import java.util.Objects;

/**
 * One reason the run is not established.
 *
 * @param kind the typed reason
 * @param message the operator-facing line, e.g. "not shown to limit ingest: ..."
 */
public record Failure(FailureKind kind, String message) {
  public Failure {
    Objects.requireNonNull(kind, "kind must not be null");
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("message must be non-blank, got " + message);
    }
  }
}
