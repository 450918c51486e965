package dev.ceiling.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a one-relay round ({@link SplitRound}, {@link IdentitiesRound}) ended.
 *
 * @param report what the round's file holds ({@link SplitRoundReport}, {@link
 *     IdentitiesRoundReport}), or null when the round never planned (the relay did not start)
 * @param file the round's file, or null when nothing was written
 * @param outcome ESTABLISHED when the round completed and its answer is one the round can stand on
 *     (the split round: SPLIT_RAISES_THE_CEILING or EQUIVALENT_WITHIN_DELTA; the defaults round: a
 *     reading at every N); NOT_ESTABLISHED for any other answer or a partial round; BAD_INPUT or
 *     INFRASTRUCTURE when it could not run
 * @param problems what went wrong, one line each
 * @param <R> the round's report
 */
public record RoundResult<R>(R report, Path file, Outcome outcome, List<String> problems) {
  public RoundResult {
    Objects.requireNonNull(outcome, "outcome must not be null");
    problems = List.copyOf(problems);
  }

  static <R> RoundResult<R> failed(Outcome outcome, String problem) {
    return new RoundResult<>(null, null, outcome, List.of(problem));
  }
}
