package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Writes {@code report.json} and the further renderings beside it. */
final class ReportWriter {
  private ReportWriter() {}

  /**
   * What was written.
   *
   * @param json the JSON report, or null when none was written
   * @param extra the further renderings written, in order
   * @param problem why writing stopped, or null
   */
  record Written(Path json, List<Path> extra, String problem) {
    static final Written NOTHING = new Written(null, List.of(), null);

    Written {
      extra = List.copyOf(extra);
    }
  }

  /** Writes {@code report} (nothing when it is null) into {@code out}; never throws. */
  static Written write(
      Path out,
      ExperimentReport report,
      Map<String, Function<ExperimentReport, String>> renderers) {
    if (report == null) {
      return Written.NOTHING;
    }
    Path json = null;
    List<Path> extra = new ArrayList<>();
    try {
      Path jsonFile = out.resolve("report.json");
      Json.write(jsonFile, report);
      // Listed as written only once it is: a failed write is a problem, not a path to open.
      json = jsonFile;
      for (Map.Entry<String, Function<ExperimentReport, String>> r : renderers.entrySet()) {
        Path file = out.resolve(r.getKey());
        Json.writeText(file, r.getValue().apply(report));
        extra.add(file);
      }
      return new Written(json, extra, null);
    } catch (IOException e) {
      return new Written(json, extra, "cannot write the report: " + e.getMessage());
    }
  }
}
