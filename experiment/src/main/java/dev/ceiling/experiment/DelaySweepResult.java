package dev.ceiling.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a delay sweep ended.
 *
 * @param report what was measured and judged (the base arm's, with a contrast), or null when
 *     nothing could be (the relay did not start, the link has no proxy)
 * @param file {@code sensitivity.json}, or null when it was never written
 * @param outcome ESTABLISHED when the line holds and k is consistent with a declared count (with a
 *     contrast: in both arms, and their slopes agree); NOT_ESTABLISHED otherwise; BAD_INPUT or
 *     INFRASTRUCTURE when it could not be measured
 * @param problems what stopped it, one line each
 * @param contrast the two arms compared, or null without a contrast (or when nothing was measured)
 * @param contrastFile {@code contrast.json}, or null when it was never written
 */
public record DelaySweepResult(
    DelaySweepReport report,
    Path file,
    Outcome outcome,
    List<String> problems,
    DelaySweepContrast contrast,
    Path contrastFile) {
  public DelaySweepResult {
    Objects.requireNonNull(outcome, "outcome must not be null");
    problems = List.copyOf(problems);
  }

  /** One arm's result. */
  DelaySweepResult(DelaySweepReport report, Path file, Outcome outcome, List<String> problems) {
    this(report, file, outcome, problems, null, null);
  }

  static DelaySweepResult failed(Outcome outcome, String problem) {
    return new DelaySweepResult(null, null, outcome, List.of(problem));
  }
}
