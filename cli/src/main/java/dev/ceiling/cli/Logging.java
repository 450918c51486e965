package dev.ceiling.cli;

/**
 * The library loggers' level. The CLI binds slf4j-simple, quiet (warnings only) by default; a
 * command's {@code --verbose} calls {@link #verbose} before anything logs, which raises it to info.
 */
public final class Logging {
  static final String LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

  private Logging() {}

  /**
   * Raises the loggers to info when {@code verbose}; call before the first logger is made (a
   * command's first line does that: nothing logs while picocli parses).
   */
  public static void verbose(boolean verbose) {
    if (verbose) {
      System.setProperty(LEVEL_PROPERTY, "info");
    }
  }
}
