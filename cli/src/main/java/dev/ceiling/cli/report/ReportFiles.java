package dev.ceiling.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Supplier;

/** Reads what a report file is and writes a command's files: the one place that does. */
public final class ReportFiles {
  private ReportFiles() {}

  /**
   * Writes an experiment report's {@code json} and {@code html} (either may be null: not asked
   * for).
   *
   * @throws IOException naming the file that could not be written
   */
  public static void write(ExperimentReport report, Path json, Path html) throws IOException {
    writeJson(json, report);
    writeText(html, () -> HtmlReport.render(report));
  }

  /** Writes {@code value} as JSON to {@code file}, unless null (not asked for). */
  public static void writeJson(Path file, Object value) throws IOException {
    if (file != null) {
      try {
        Json.write(file, value);
      } catch (IOException e) {
        throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
      }
    }
  }

  /** Writes {@code text} to {@code file}, unless null (not asked for). */
  public static void writeText(Path file, Supplier<String> text) throws IOException {
    if (file != null) {
      try {
        // Owner-only like every file Ceiling writes: a report holds the relay's descriptor.
        Json.writeText(file, text.get());
      } catch (IOException e) {
        throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * True when {@code file} is JSON with a verdict and no arm of its own: an experiment report, not
   * a half-run. False for anything else, unreadable files included (their own reader names the
   * syntax error with its line and column).
   */
  public static boolean isExperimentReport(Path file) {
    try {
      JsonNode tree = Json.mapper().readTree(file.toFile());
      return tree != null && tree.has("verdict") && !tree.has("arm");
    } catch (IOException | RuntimeException notJson) {
      return false;
    }
  }
}
