package dev.ceiling.experiment;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@link Explain} tells as it runs, between its rounds (each round tells its own cells through
 * its own listener). Every method defaults to nothing; called on the run's thread.
 */
public interface ExplainProgress {
  /** A listener that says nothing. */
  ExplainProgress NONE = new ExplainProgress() {};

  /** The plan is written, before the first round: the estimate of the whole run. */
  default void planned(ExplainPlan plan, Path file) {}

  /**
   * A round starts.
   *
   * @param index 1-based place among the plan's rounds
   * @param left the estimate of this round and every one after it
   * @param continued how an earlier run's directory is taken up, in words, or null for a fresh
   *     round
   */
  default void roundStarting(
      ExplainPlan.Round round, int index, int of, Duration left, String continued) {}

  /** A round ended (or an earlier run of the same plan had finished it: {@code took} is null). */
  default void roundEnded(ExplainResult.RoundEnd end, Duration took) {}
}
