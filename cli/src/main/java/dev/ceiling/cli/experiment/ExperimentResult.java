package dev.ceiling.cli.experiment;

import dev.ceiling.verdict.ExperimentReport;
import java.nio.file.Path;
import java.util.List;

/**
 * What an experiment produced.
 *
 * @param report the report (both halves and the verdict), or null when nothing was measured
 * @param outDir where everything was written
 * @param reportJson the JSON report, or null when none was written
 * @param reportHtml the HTML report, or null when none was written
 * @param problems infrastructure and completeness problems, one line each
 * @param exitCode the CLI's exit code for this result ({@link dev.ceiling.cli.ExitCode})
 */
public record ExperimentResult(
    ExperimentReport report,
    Path outDir,
    Path reportJson,
    Path reportHtml,
    List<String> problems,
    int exitCode) {
  public ExperimentResult {
    problems = List.copyOf(problems);
  }

  /** True when the verdict established that the treatment arm limits ingest. */
  public boolean established() {
    return report != null && report.verdict().established() && problems.isEmpty();
  }
}
