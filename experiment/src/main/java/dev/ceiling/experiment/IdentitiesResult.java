package dev.ceiling.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a defaults round ended.
 *
 * @param report what {@code identities.json} holds, or null when the round never planned
 * @param file {@code identities.json}, or null when nothing was written
 * @param outcome ESTABLISHED when every planned cell ran and every N has a reading; NOT_ESTABLISHED
 *     for a partial round or an N no cell could read; BAD_INPUT or INFRASTRUCTURE when it could not
 *     run
 * @param problems what went wrong, one line each
 */
public record IdentitiesResult(
    IdentitiesRoundReport report, Path file, Outcome outcome, List<String> problems) {
  public IdentitiesResult {
    Objects.requireNonNull(outcome, "outcome must not be null");
    problems = List.copyOf(problems);
  }

  static IdentitiesResult failed(Outcome outcome, String problem) {
    return new IdentitiesResult(null, null, outcome, List.of(problem));
  }
}
