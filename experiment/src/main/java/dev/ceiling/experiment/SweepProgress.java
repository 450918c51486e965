package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;

/**
 * Where a sweep reports progress. Called from the sweep's thread. Every method does nothing by
 * default, so a listener overrides only what it shows ({@link ExperimentProgress#NONE} shows
 * nothing).
 */
public interface SweepProgress {
  default void sweepStarted(String arm, int planned, int alreadyDone) {}

  default void cellFinished(Cell cell, int done, int planned) {}

  /** A progress line from the generator (phase changes, once a second while sending). */
  default void generatorLine(String line) {}

  default void warning(String message) {}
}
