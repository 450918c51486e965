package dev.ceiling.experiment;

import dev.ceiling.verdict.ExperimentReport;
import java.nio.file.Path;
import java.util.List;

/**
 * What an experiment produced.
 *
 * @param report the report (both halves and the verdict), or null when nothing was measured
 * @param outDir where everything was written
 * @param reportJson the JSON report, or null when none was written
 * @param extraFiles further renderings written beside the JSON ({@link
 *     Experiment.Builder#alsoRender}), in order; empty when none
 * @param problems infrastructure and completeness problems, one line each
 * @param outcome how the experiment ended
 */
public record ExperimentResult(
    ExperimentReport report,
    Path outDir,
    Path reportJson,
    List<Path> extraFiles,
    List<String> problems,
    Outcome outcome) {
  public ExperimentResult {
    extraFiles = List.copyOf(extraFiles);
    problems = List.copyOf(problems);
  }

  /** True when the verdict established that the treatment arm limits ingest. */
  public boolean established() {
    return report != null && report.verdict().established() && problems.isEmpty();
  }
}
