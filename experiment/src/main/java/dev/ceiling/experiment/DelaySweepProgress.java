package dev.ceiling.experiment;

import java.time.Duration;

/** Progress of a delay sweep: the rig and sweep events, the plan and each cell's report. */
public interface DelaySweepProgress extends ExperimentProgress {
  /** Shows nothing. */
  DelaySweepProgress NONE = new DelaySweepProgress() {};

  /** The plan is fixed and written; {@code estimate} is how long its cells should take. */
  default void planned(DelaySweepPlan plan, Duration estimate) {}

  /**
   * A resume continues {@code stored}: the relay is up and matches the stored one, the stored cells
   * are kept and the plan's other cells run now.
   */
  default void resuming(DelaySweepReport stored) {}

  /** A cell was measured; {@code soFar} is the report as written after it. */
  default void measured(DelaySweepReport soFar) {}

  /** A sweep per link: its plan of every link is fixed and written. */
  default void linksPlanned(LinkSweepsReport.Plan plan) {}

  /** A sweep per link: the sweep of {@code link}, the {@code index}-th of {@code of}, starts. */
  default void link(String link, int index, int of) {}

  /** The base arm is done; the contrast arm's relay starts with these parameters on top. */
  default void contrastArm(java.util.Map<String, String> parameters) {}
}
