package dev.ceiling.cli;

import dev.ceiling.experiment.Outcome;

/** Process exit codes; tests assert them. */
public final class ExitCode {
  /** The contract passed: the treatment arm is shown to limit ingest. */
  public static final int ESTABLISHED = 0;

  /** The contract failed, or the result is partial (a half-run, an interrupted sweep). */
  public static final int NOT_ESTABLISHED = 1;

  /** Bad usage or bad input (a malformed spec, profile or report). */
  public static final int USAGE = 2;

  /** Infrastructure failure: the relay did not start, metrics were unreachable. */
  public static final int INFRASTRUCTURE = 3;

  private ExitCode() {}

  /** The exit code for an experiment's outcome. */
  public static int of(Outcome outcome) {
    return switch (outcome) {
      case ESTABLISHED -> ESTABLISHED;
      case NOT_ESTABLISHED -> NOT_ESTABLISHED;
      case BAD_INPUT -> USAGE;
      case INFRASTRUCTURE -> INFRASTRUCTURE;
    };
  }
}
