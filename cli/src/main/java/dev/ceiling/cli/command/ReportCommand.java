package dev.ceiling.cli.command;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ceiling report FILE.json --html OUT.html}: re-render (and re-check) a saved report. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Print a saved experiment report's summary and optionally render it as HTML. The verdict is",
      "recomputed from the raw cells in the file; a stored verdict that disagrees is an error."
    })
public final class ReportCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "An experiment report (report.json).")
  Path file;

  @Option(names = "--html", description = "Write the HTML report here.")
  Path html;

  @Override
  public Integer call() {
    ExperimentReport report;
    try {
      report = Json.read(file, ExperimentReport.class);
    } catch (ReportFormatException e) {
      System.err.println("error: " + e.getMessage());
      return ExitCode.USAGE;
    }
    VerdictReport again = report.recompute();
    if (!again.equals(report.verdict())) {
      System.err.println(
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
    if (html != null) {
      try {
        Files.writeString(html, HtmlReport.render(report));
      } catch (IOException e) {
        System.err.println("error: cannot write " + html + ": " + e.getMessage());
        return ExitCode.INFRASTRUCTURE;
      }
    }
    System.out.print(Summary.text(report));
    return report.verdict().established() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED;
  }
}
