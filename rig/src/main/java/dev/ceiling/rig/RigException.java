package dev.ceiling.rig;

import java.util.List;

/**
 * The rig could not do what was asked: a profile is invalid, a port is taken, the relay did not
 * start or become ready, the state is inconsistent. The message says what was expected and what was
 * found (for a failed start: whether the process is alive or its exit code, and its log tail), so
 * nobody needs the stack trace.
 */
public final class RigException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What failed, so a CLI can pick an exit code. */
  public enum Kind {
    /** The profile or the options are invalid (usage / bad input). */
    BAD_INPUT,
    /** A port the relay needs is held by someone else. */
    PORT_IN_USE,
    /** The relay exited, never became ready, or could not be launched. */
    START_FAILED,
    /** The attached relay's health URL did not answer. */
    ATTACH_FAILED,
    /** The state directory holds a live relay already, or cannot be written. */
    STATE
  }

  private final Kind kind;
  private final List<String> problems;

  public RigException(Kind kind, String message, List<String> problems, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.problems = List.copyOf(problems);
  }

  public RigException(Kind kind, String message) {
    this(kind, message, List.of(message), null);
  }

  public RigException(Kind kind, String message, Throwable cause) {
    this(kind, message, List.of(message), cause);
  }

  static RigException profile(String source, List<String> problems) {
    StringBuilder sb = new StringBuilder("invalid relay profile " + source + ":");
    for (String p : problems) {
      sb.append("\n  ").append(p);
    }
    return new RigException(Kind.BAD_INPUT, sb.toString(), problems, null);
  }

  /** Builds a profile error (used by the reader). */
  public static RigException invalidProfile(String source, List<String> problems) {
    return profile(source, problems);
  }

  public Kind kind() {
    return kind;
  }

  /** Each problem on its own; for a profile, every one found, each naming the field. */
  public List<String> problems() {
    return problems;
  }
}
