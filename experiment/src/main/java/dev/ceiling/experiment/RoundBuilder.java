package dev.ceiling.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the one-relay rounds' builders ({@link Experiment#builder()}, {@link SplitRound#builder()},
 * {@link IdentitiesRound#builder()}) add to every measurement's settings: the order seed, the
 * progress listener, Ctrl-C handling, the output directory when none is given, and the checks they
 * share (a profile, a window).
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class RoundBuilder<B extends RoundBuilder<B>> extends MeasurementBuilder<B> {
  Long seed;
  ExperimentProgress progress = ExperimentProgress.NONE;
  boolean installShutdownHook = true;

  RoundBuilder(Duration duration) {
    super(duration, SweepOptions.defaults(Path.of("journal.jsonl")));
  }

  /** Shuffle the plan's order with this seed (default: ascending). */
  public B shuffled(long orderSeed) {
    this.seed = orderSeed;
    return self();
  }

  public B progress(ExperimentProgress p) {
    this.progress = Objects.requireNonNull(p, "progress");
    return self();
  }

  /** Whether Ctrl-C is handled (default true; tests embedding Ceiling may turn it off). */
  public B installShutdownHook(boolean install) {
    this.installShutdownHook = install;
    return self();
  }

  /** The problems every round checks; a round adds its own to the list. */
  List<String> commonProblems() {
    List<String> problems = new ArrayList<>();
    if (profile == null) {
      problems.add("profile is required");
    }
    if (duration.isZero() || duration.isNegative()) {
      problems.add("duration must be > 0, got " + duration);
    }
    return problems;
  }

  /**
   * The output directory: the one given, or a new one of the run's own under {@code
   * ceiling-reports} ({@link Experiment#newRunDirectory}), as for an experiment.
   */
  Path outDirOrNew() throws ExperimentException {
    if (outDir != null) {
      return outDir;
    }
    try {
      outDir = Experiment.newRunDirectory(Path.of("ceiling-reports"));
      return outDir;
    } catch (java.io.IOException e) {
      throw new ExperimentException("cannot create an output directory: " + e, e);
    }
  }

  /** Throws every problem at once; returns when there is none. */
  static void orThrow(List<String> problems) throws ExperimentException {
    if (!problems.isEmpty()) {
      throw new ExperimentException(String.join("; ", problems), null);
    }
  }
}
