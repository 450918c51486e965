package dev.ceiling.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How {@link Explain} ended: the plan, each round's end (those that cannot run on the profile
 * included) and the whole run's outcome.
 *
 * @param plan the plan the run followed
 * @param outDir the run's directory; each round's lies under it
 * @param rounds every round of the plan and every round that cannot run, in the plan's order
 * @param interrupted true when a stop request ended the run before its last round
 * @param outcome ESTABLISHED when every round that runs on the profile ended ESTABLISHED;
 *     INFRASTRUCTURE when one ended so; NOT_ESTABLISHED otherwise (a round that could not run, a
 *     round refused, an interrupted run)
 */
public record ExplainResult(
    ExplainPlan plan, Path outDir, List<RoundEnd> rounds, boolean interrupted, Outcome outcome) {
  public ExplainResult {
    Objects.requireNonNull(plan, "plan must not be null");
    Objects.requireNonNull(outDir, "outDir must not be null");
    Objects.requireNonNull(outcome, "outcome must not be null");
    rounds = List.copyOf(rounds);
  }

  /** Whether a round ran, and if not why not. */
  public enum Ran {
    /** It ran (or an earlier run of the same plan finished it); its outcome says how it ended. */
    RAN,
    /** The profile does not allow it (no link, no admission limits, one community). */
    NOT_APPLICABLE,
    /** A stop request came before it started, or it was interrupted and is to be resumed. */
    NOT_FINISHED
  }

  /**
   * One round's end.
   *
   * @param name the round in words
   * @param kind which round
   * @param dir its directory relative to the run's, or null for a round that cannot run
   * @param ran whether it ran
   * @param outcome how it ended, or null when it did not run to its end
   * @param problems what stopped it or why it cannot run, one line each
   * @param file its report file relative to the run's directory, or null when none was written
   */
  public record RoundEnd(
      String name,
      ExplainPlan.Kind kind,
      String dir,
      Ran ran,
      Outcome outcome,
      List<String> problems,
      String file) {
    public RoundEnd {
      Objects.requireNonNull(name, "name must not be null");
      Objects.requireNonNull(kind, "kind must not be null");
      Objects.requireNonNull(ran, "ran must not be null");
      if ((ran == Ran.RAN) != (outcome != null)) {
        throw new IllegalArgumentException(
            "a round that ran has an outcome and only it, got " + ran + " with " + outcome);
      }
      problems = List.copyOf(problems);
    }
  }
}
