package dev.ceiling.experiment;

/**
 * How a round's cell loop stands or ended. The file a round rewrites after every cell says it in
 * words ("running: 3 of 8 cells", "stopped after 3 of 8 cells: interrupted"); the code decides on
 * the type, never on those words, so that an interrupt is told from a failure whatever a message
 * says.
 */
sealed interface RoundEnd {
  /** The loop is still measuring: the file is a snapshot between two cells. */
  static RoundEnd running() {
    return new Running();
  }

  /** The loop ran out of cells to measure. */
  static RoundEnd finished() {
    return new Finished();
  }

  /** A stop signal ended the loop between two cells; what was measured stands. */
  static RoundEnd interrupted() {
    return new Interrupted();
  }

  /** A failure of the rig or the machine ended the loop; {@code reason} says which. */
  static RoundEnd failed(String reason) {
    return new Failed(reason, null);
  }

  /**
   * A failure of the rig or the machine ended the loop; {@code reason} says which, {@code cause} is
   * the exception that did (null when none), for a caller that passes it on.
   */
  static RoundEnd failed(String reason, Exception cause) {
    return new Failed(reason, cause);
  }

  /** Why the loop stopped early, as the file and the problems say it; null when it did not. */
  String reason();

  /** Whether the round is over (the file gets its end time). */
  default boolean ended() {
    return !(this instanceof Running);
  }

  /** Not a verdict: a failure of the infrastructure, which an interrupt is not. */
  default boolean failed() {
    return this instanceof Failed;
  }

  /**
   * The file's {@code incomplete_reason} for {@code measured} of {@code planned} cells, or null
   * when every planned cell is measured.
   */
  default String incompleteReason(int measured, int planned) {
    if (measured == planned) {
      return null;
    }
    return ended()
        ? "stopped after "
            + measured
            + " of "
            + planned
            + " cells: "
            + (reason() == null ? "" : reason())
        : "running: " + measured + " of " + planned + " cells";
  }

  record Running() implements RoundEnd {
    @Override
    public String reason() {
      return null;
    }
  }

  record Finished() implements RoundEnd {
    @Override
    public String reason() {
      return null;
    }
  }

  record Interrupted() implements RoundEnd {
    /** The word the files and problems use, which tests and users read. */
    @Override
    public String reason() {
      return "interrupted";
    }
  }

  record Failed(String reason, Exception cause) implements RoundEnd {}
}
