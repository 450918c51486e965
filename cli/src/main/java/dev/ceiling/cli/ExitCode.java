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

  /**
   * Interrupted by Ctrl-C or SIGTERM: what was measured is written (marked incomplete) and the
   * relay is down. The shell's convention for SIGINT (128 + 2), used for SIGTERM too, so a script
   * or a supervisor sees one code for "stopped on request".
   */
  public static final int INTERRUPTED = 130;

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
