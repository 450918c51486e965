package dev.ceiling.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a split round ended.
 *
 * @param report what {@code split.json} holds, or null when the round never planned (the relay did
 *     not start)
 * @param file {@code split.json}, or null when nothing was written
 * @param outcome ESTABLISHED when the verdict is SPLIT_RAISES_THE_CEILING or
 *     EQUIVALENT_WITHIN_DELTA on a complete round; NOT_ESTABLISHED for every other verdict or a
 *     partial round; BAD_INPUT or INFRASTRUCTURE when it could not run
 * @param problems what went wrong, one line each
 */
public record SplitResult(
    SplitRoundReport report, Path file, Outcome outcome, List<String> problems) {
  public SplitResult {
    Objects.requireNonNull(outcome, "outcome must not be null");
    problems = List.copyOf(problems);
  }

  static SplitResult failed(Outcome outcome, String problem) {
    return new SplitResult(null, null, outcome, List.of(problem));
  }
}
