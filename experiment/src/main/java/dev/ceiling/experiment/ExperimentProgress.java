package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.RigDescriptor;

/** Progress of a whole experiment: the sweep's events plus rig transitions. */
public interface ExperimentProgress extends SweepProgress {
  ExperimentProgress NONE =
      new ExperimentProgress() {
        @Override
        public void rigUp(String arm, RigDescriptor rig) {}

        @Override
        public void sweepStarted(String arm, int planned, int alreadyDone) {}

        @Override
        public void cellFinished(Cell cell, int done, int planned) {}

        @Override
        public void generatorLine(String line) {}

        @Override
        public void warning(String message) {}
      };

  void rigUp(String arm, RigDescriptor rig);
}
