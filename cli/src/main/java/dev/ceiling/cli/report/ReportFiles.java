package dev.ceiling.cli.report;

import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import java.io.IOException;
import java.nio.file.Path;

/** Writes an experiment report's files: the one place that does, for every command. */
public final class ReportFiles {
  private ReportFiles() {}

  /**
   * Writes {@code json} and {@code html} (either may be null: not asked for).
   *
   * @throws IOException naming the file that could not be written
   */
  public static void write(ExperimentReport report, Path json, Path html) throws IOException {
    if (json != null) {
      try {
        Json.write(json, report);
      } catch (IOException e) {
        throw new IOException("cannot write " + json + ": " + e.getMessage(), e);
      }
    }
    if (html != null) {
      try {
        // Owner-only like every file Ceiling writes: the report holds the relay's descriptor.
        Json.writeText(html, HtmlReport.render(report));
      } catch (IOException e) {
        throw new IOException("cannot write " + html + ": " + e.getMessage(), e);
      }
    }
  }
}
