package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;

/** Where a sweep reports progress. Called from the sweep's thread. */
public interface SweepProgress {
  /** Reports nothing. */
  SweepProgress NONE =
      new SweepProgress() {
        @Override
        public void sweepStarted(String arm, int planned, int alreadyDone) {}

        @Override
        public void cellFinished(Cell cell, int done, int planned) {}

        @Override
        public void generatorLine(String line) {}

        @Override
        public void warning(String message) {}
      };

  void sweepStarted(String arm, int planned, int alreadyDone);

  void cellFinished(Cell cell, int done, int planned);

  /** A progress line from the generator (phase changes, once a second while sending). */
  void generatorLine(String line);

  void warning(String message);
}
