package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.ReportFiles;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import dev.ceiling.verdict.VerdictReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ceiling report FILE.json --html OUT.html}: re-render (and re-check) a saved report. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    header = "Re-check a saved report, print its summary, render HTML.",
    description = {
      "The verdict is recomputed from the raw cells in the file; a stored verdict that disagrees"
          + " with the file's own thresholds is an error. What decides is the recomputation with"
          + " Ceiling's default thresholds (or the ones given by flag), never the file's; where the"
          + " file's differ, the summary shows both.",
      "Exit codes: 0 established, 1 not established, 2 bad or edited report, 3 HTML not written.",
      ""
    })
public final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "REPORT",
      description = "An experiment report (report.json).")
  Path file;

  @Mixin ThresholdOptions thresholds = new ThresholdOptions();

  @Option(names = "--html", paramLabel = "FILE", description = "Write the HTML report here.")
  Path html;

  @Override
  public Integer call() {
    VerdictConfig cfg =
        thresholds.orFail(
            new OutputPaths().input("REPORT", file).output("--html", html), spec.commandLine());
    PrintWriter err = spec.commandLine().getErr();
    ExperimentReport report;
    try {
      report = Json.read(file, ExperimentReport.class);
    } catch (ReportFormatException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    VerdictReport again = report.recompute();
    if (!again.equals(report.verdict())) {
      err.println(
          "error: "
              + file
              + ": $.verdict: the stored verdict differs from the one recomputed from the file's"
              + " cells (stored established="
              + report.verdict().established()
              + ", recomputed established="
              + again.established()
              + "); the file was edited or is corrupt");
      return ExitCode.USAGE;
    }
    // The file is consistent with itself; now judge it with the thresholds that decide.
    VerdictConfig stored = report.verdict().config();
    ExperimentReport decided = report.rejudged(cfg);
    try {
      ReportFiles.write(decided, null, html);
    } catch (IOException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    spec.commandLine().getOut().print(Summary.text(decided, stored.equals(cfg) ? null : stored));
    return decided.verdict().established() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED;
  }
}
