package dev.ceiling.cli.command;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.CombineException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ceiling combine A.json B.json}: two half-runs into one experiment and its verdict. */
@Command(
    name = "combine",
    mixinStandardHelpOptions = true,
    description = {
      "Combine a treatment half-run and a control half-run (in either order) and judge them.",
      "Refused, listing every mismatched field, unless they share one identity."
    })
public final class CombineCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "One half-run JSON.")
  Path a;

  @Parameters(index = "1", description = "The other half-run JSON.")
  Path b;

  @Option(names = "--json", description = "Write the experiment report here.")
  Path json;

  @Option(names = "--html", description = "Write the HTML report here.")
  Path html;

  @Override
  public Integer call() {
    ExperimentReport report;
    try {
      HalfRun ha = Json.read(a, HalfRun.class);
      HalfRun hb = Json.read(b, HalfRun.class);
      report = ExperimentReport.of(Combine.combine(ha, hb), VerdictConfig.defaults());
    } catch (ReportFormatException | CombineException e) {
      System.err.println("error: " + e.getMessage());
      return ExitCode.USAGE;
    }
    try {
      if (json != null) {
        Json.write(json, report);
      }
      if (html != null) {
        Files.writeString(html, HtmlReport.render(report));
      }
    } catch (IOException e) {
      System.err.println("error: cannot write the report: " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    System.out.print(Summary.text(report));
    return report.verdict().established() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED;
  }
}
