package dev.ceiling.core.model;

import java.util.Objects;

/**
 * What the profile's {@code control_check} command printed just before and just after a cell of the
 * arm without the code path (for example a row count of the relay's audit table). The pair must not
 * change: a change says the path is live in the arm that claims it is off.
 *
 * @param outputBefore the command's standard output before the cell (trimmed, bounded), or the
 *     reason it could not run
 * @param exitBefore its exit code, or null when it could not run or did not finish in time
 * @param outputAfter the same after the cell
 * @param exitAfter its exit code, or null when it could not run or did not finish in time
 */
public record ControlCheckReading(
    String outputBefore, Integer exitBefore, String outputAfter, Integer exitAfter) {
  public ControlCheckReading {
    Objects.requireNonNull(outputBefore, "control_check.output_before must not be null");
    Objects.requireNonNull(outputAfter, "control_check.output_after must not be null");
  }

  /** True when both runs finished and printed the same thing with the same exit code. */
  public boolean unchanged() {
    return ran() && outputBefore.equals(outputAfter) && exitBefore.equals(exitAfter);
  }

  /** True when both runs finished (whatever their exit codes). */
  public boolean ran() {
    return exitBefore != null && exitAfter != null;
  }
}
