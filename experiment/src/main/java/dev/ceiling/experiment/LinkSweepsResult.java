package dev.ceiling.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a sweep per link ended.
 *
 * @param report the plan and the table, as last written to {@code links.json}
 * @param file {@code links.json}
 * @param outcome ESTABLISHED only when every link's sweep is (its line holds, and its k is
 *     consistent with the count declared for it); otherwise the worst of the links' outcomes
 *     (INFRASTRUCTURE, then BAD_INPUT, then NOT_ESTABLISHED)
 * @param problems what stopped a link's sweep, each line prefixed with the link
 * @param sweeps each swept link's own result, by link, in the plan's order
 */
public record LinkSweepsResult(
    LinkSweepsReport report,
    Path file,
    Outcome outcome,
    List<String> problems,
    Map<String, DelaySweepResult> sweeps) {
  public LinkSweepsResult {
    Objects.requireNonNull(report, "report must not be null");
    Objects.requireNonNull(outcome, "outcome must not be null");
    problems = List.copyOf(problems);
    sweeps = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sweeps));
  }
}
