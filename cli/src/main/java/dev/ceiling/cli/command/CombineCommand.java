package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.ReportFiles;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.CombineException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ceiling combine A.json B.json}: two half-runs into one experiment and its verdict. */
@Command(
    name = "combine",
    mixinStandardHelpOptions = true,
    header = "Combine a treatment and a control half-run and judge them.",
    description = {
      "The halves may come in either order. They are refused, listing every mismatched field,"
          + " unless they share one identity.",
      "Exit codes: 0 established, 1 not established, 2 bad input, 3 a report not written.",
      ""
    })
public final class CombineCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "HALF_A", description = "One half-run JSON.")
  Path a;

  @Parameters(index = "1", paramLabel = "HALF_B", description = "The other half-run JSON.")
  Path b;

  @Mixin ThresholdOptions thresholds = new ThresholdOptions();

  @Option(names = "--json", paramLabel = "FILE", description = "Write the experiment report here.")
  Path json;

  @Option(names = "--html", paramLabel = "FILE", description = "Write the HTML report here.")
  Path html;

  /** A half-run; an experiment report is named as such rather than as a pile of unknown fields. */
  private static HalfRun half(Path file) throws ReportFormatException {
    try {
      return Json.read(file, HalfRun.class);
    } catch (ReportFormatException e) {
      if (ReportFiles.isExperimentReport(file)) {
        throw new ReportFormatException(
            file.toString(),
            "$",
            "this is an experiment report; combine takes two half-runs (half-*.json beside it),"
                + " and 'ceiling report' re-checks an experiment report",
            e);
      }
      throw e;
    }
  }

  @Override
  public Integer call() {
    VerdictConfig cfg =
        thresholds.orFail(
            new OutputPaths()
                .input("HALF_A", a)
                .input("HALF_B", b)
                .output("--json", json)
                .output("--html", html),
            spec.commandLine());
    ExperimentReport report;
    try {
      HalfRun ha = half(a);
      HalfRun hb = half(b);
      report = ExperimentReport.of(Combine.combine(ha, hb), cfg);
    } catch (ReportFormatException | CombineException e) {
      CommandLines.error(spec.commandLine().getErr(), e.getMessage());
      return ExitCode.USAGE;
    }
    try {
      ReportFiles.write(report, json, html);
    } catch (IOException e) {
      CommandLines.error(spec.commandLine().getErr(), e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    spec.commandLine().getOut().print(Summary.text(report));
    return report.verdict().established() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED;
  }
}
