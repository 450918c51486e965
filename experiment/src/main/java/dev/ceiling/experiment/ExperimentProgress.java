package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;

/** Progress of a whole experiment: the sweep's events plus rig transitions. */
public interface ExperimentProgress extends SweepProgress {
  /** Reports nothing: the one no-op listener, for sweeps and experiments alike. */
  ExperimentProgress NONE = new ExperimentProgress() {};

  default void rigUp(String arm, RigDescriptor rig) {}
}
