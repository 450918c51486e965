package dev.ceiling.prom;

import java.util.List;

/**
 * A metrics endpoint could not be fetched, or its body (or a selector) is not valid Prometheus text
 * format 0.0.4. The message names the URL or the {@code line:column} of every problem found (up to
 * a cap) and what was expected there, so nobody needs the stack trace to fix the input.
 */
public final class MetricsException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;

  /** A problem that has no position in a text (fetch failures, wrong status, size cap). */
  public MetricsException(String message, Throwable cause) {
    super(message, cause);
    this.line = 0;
    this.column = 0;
  }

  /**
   * Problems found in a text; {@code line} and {@code column} are those of the first one (1-based;
   * the column counts Unicode code points).
   */
  MetricsException(int line, int column, String message) {
    super(message);
    this.line = line;
    this.column = column;
  }

  private MetricsException(String message, MetricsException cause, int line, int column) {
    super(message, cause);
    this.line = line;
    this.column = column;
  }

  /** Wraps a body problem with the URL it came from, keeping its position. */
  static MetricsException prefixed(String prefix, MetricsException bodyProblem) {
    return new MetricsException(
        prefix + bodyProblem.getMessage(), bodyProblem, bodyProblem.line, bodyProblem.column);
  }

  static MetricsException ofProblems(List<Problem> problems, int cap) {
    StringBuilder message = new StringBuilder();
    int shown = Math.min(problems.size(), cap);
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        message.append('\n');
      }
      message.append(problems.get(i));
    }
    if (problems.size() > cap) {
      message.append("\n(and ").append(problems.size() - cap).append(" more problems)");
    }
    Problem first = problems.get(0);
    return new MetricsException(first.line(), first.column(), message.toString());
  }

  /** Line of the first problem in the text, 1-based; 0 when the problem has no position. */
  public int line() {
    return line;
  }

  /** Column of the first problem in the text, 1-based, in code points; 0 when no position. */
  public int column() {
    return column;
  }

  /** One positioned problem. */
  record Problem(int line, int column, String what) {
    @Override
    public String toString() {
      return line + ":" + column + ": " + what;
    }
  }
}
