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
    INFRASTRUCTURE
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
