package dev.ceiling.experiment.internal;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The two lines between {@link dev.ceiling.experiment.GeneratorProcesses} and each {@link
 * GeneratorChild}: the child writes {@link #READY} on its stdout once it is pre-signed, connected
 * and warm; after every child has, the parent writes {@link #startLine} on each child's stdin, the
 * shared start instant of their schedule. The instant is fixed after the last child is ready
 * because a fixed lead from launch is a guess about how long a loaded machine takes to start a JVM,
 * and a child that missed it failed the cell.
 */
public final class StartHandshake {
  /** The child's line: ready for a start instant. */
  public static final String READY = "ready";

  private static final String START_AT = "start-at ";

  private StartHandshake() {}

  /** The parent's line giving slot 0's wall-clock instant. */
  public static String startLine(Instant at) {
    return START_AT + at;
  }

  /**
   * The instant in a {@link #startLine}.
   *
   * @throws IllegalArgumentException naming the line and the expected shape
   */
  public static Instant parseStartLine(String line) {
    if (line != null && line.startsWith(START_AT)) {
      try {
        return Instant.parse(line.substring(START_AT.length()).trim());
      } catch (DateTimeParseException e) {
        // Reported below with the whole line.
      }
    }
    throw new IllegalArgumentException(
        "expected '" + START_AT + "<ISO-8601 instant>' from the parent, got '" + line + "'");
  }
}
