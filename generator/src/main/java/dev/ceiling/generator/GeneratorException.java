package dev.ceiling.generator;

/**
 * The generator could not run: a bad configuration, a refused remote target, a connection that
 * failed before the clock started, or signing that failed. The message carries the context an
 * operator needs (which target, which URL and Host header, what failed) without a stack trace.
 */
public final class GeneratorException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What kind of failure, so a CLI can map it to an exit code. */
  public enum Kind {
    /** Bad input: exit code 2. */
    CONFIG,
    /** Infrastructure (connect, sign, I/O): exit code 3. */
    INFRASTRUCTURE,
    /**
     * The shared start instant had passed before this process could start. Kept apart from {@link
     * #CONFIG} because whose fault it is depends on who chose the instant: an instant a user typed
     * that is already past is bad input ({@code generate} exits 2), while one a parent chose for
     * the generator processes it started is a lead the machine could not meet (a loaded machine
     * started the JVM late), an infrastructure failure (exit 3).
     */
    STARTED_LATE
  }

  private final Kind kind;

  /** An infrastructure failure (exit code 3). */
  public GeneratorException(String message) {
    this(Kind.INFRASTRUCTURE, message);
  }

  public GeneratorException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public GeneratorException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
