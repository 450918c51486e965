package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.Comparison;
import dev.ceiling.cli.report.ComparisonHtml;
import dev.ceiling.cli.report.ReportFiles;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.BaselineCompare;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.RegressionResult;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ceiling compare BASELINE CANDIDATE --margin 5%}: a regression gate for CI. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    header = "Gate a candidate run against a baseline of the same plan.",
    description = {
      "Each run is an experiment report (report.json) or a half-run; from a report the --arm"
          + " half is taken. The runs must share their plan (profile, arms, rates, duration,"
          + " repeats, order, hosts, limiter and measurement settings), or they are refused with"
          + " every difference listed; what may differ (the relay's build and parameters,"
          + " Ceiling's build) is shown as what changed. The worker's completion rate is compared"
          + " by a one-sided non-inferiority test with the margin.",
      "Exit codes: 0 the candidate is shown non-inferior, 1 a regression, or non-inferiority"
          + " could not be shown, 2 bad usage or input, 3 a report not written.",
      ""
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BASELINE", description = "The baseline run's JSON.")
  Path baselineFile;

  @Parameters(index = "1", paramLabel = "CANDIDATE", description = "The candidate run's JSON.")
  Path candidateFile;

  @Option(
      names = "--margin",
      required = true,
      paramLabel = "MARGIN",
      converter = MarginConverter.class,
      description =
          "The largest tolerated loss of worker rate: a percentage of the baseline's (5%%) or"
              + " events/s (10/s).")
  BaselineCompare.Margin margin;

  @Option(
      names = "--arm",
      paramLabel = "ARM",
      description = "The arm to compare (default: the treatment arm, e.g. 'on').")
  String arm;

  @Mixin ThresholdOptions thresholds = new ThresholdOptions();

  @Option(names = "--json", paramLabel = "FILE", description = "Write the comparison here.")
  Path json;

  @Option(names = "--html", paramLabel = "FILE", description = "Write the HTML page here.")
  Path html;

  @Override
  public Integer call() {
    VerdictConfig cfg =
        thresholds.orFail(
            new OutputPaths()
                .input("BASELINE", baselineFile)
                .input("CANDIDATE", candidateFile)
                .output("--json", json)
                .output("--html", html),
            spec.commandLine());
    PrintWriter err = spec.commandLine().getErr();
    HalfRun baseline;
    HalfRun candidate;
    try {
      baseline = half(baselineFile, "BASELINE");
      candidate = half(candidateFile, "CANDIDATE");
    } catch (ReportFormatException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    List<String> differences = BaselineCompare.planDifferences(baseline, candidate);
    if (!differences.isEmpty()) {
      CommandLines.error(
          err,
          "BASELINE and CANDIDATE are not runs of the same plan ("
              + differences.size()
              + (differences.size() == 1 ? " difference" : " differences")
              + "):\n"
              + String.join("\n", differences));
      return ExitCode.USAGE;
    }
    RegressionResult r = BaselineCompare.workerRate(baseline, candidate, margin, cfg);
    Comparison c =
        Comparison.of(
            baselineFile.toString(),
            candidateFile.toString(),
            baseline.arm(),
            margin.text(),
            BaselineCompare.changes(baseline, candidate),
            r);
    try {
      ReportFiles.writeJson(json, c);
      ReportFiles.writeText(html, () -> ComparisonHtml.render(c));
    } catch (IOException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(c.answer());
    out.println(c.changesLine());
    out.println(c.methodLine());
    return r.nonInferior() ? ExitCode.ESTABLISHED : ExitCode.NOT_ESTABLISHED;
  }

  /** The half to compare from a report or a half-run, refusing a half of another arm. */
  private HalfRun half(Path file, String label) throws ReportFormatException {
    if (!Files.isRegularFile(file)) {
      throw CommandLines.usage(spec.commandLine(), label + ": no such file: " + file);
    }
    HalfRun h;
    if (ReportFiles.isExperimentReport(file)) {
      ExperimentReport report = Json.read(file, ExperimentReport.class);
      String want = arm != null ? arm : report.identity().treatmentArm();
      h = want.equals(report.identity().treatmentArm()) ? report.treatment() : null;
      h = want.equals(report.identity().controlArm()) ? report.control() : h;
      if (h == null) {
        throw new ReportFormatException(
            file.toString(),
            "$",
            label + ": the report holds no '" + want + "' half" + arms(report),
            null);
      }
      return h;
    }
    h = Json.read(file, HalfRun.class);
    if (arm != null && !arm.equals(h.arm())) {
      throw new ReportFormatException(
          file.toString(),
          "$.arm",
          label + ": --arm is '" + arm + "' but this half-run is arm '" + h.arm() + "'",
          null);
    }
    return h;
  }

  private static String arms(ExperimentReport report) {
    List<String> present = new ArrayList<>();
    if (report.treatment() != null) {
      present.add("'" + report.treatment().arm() + "'");
    }
    if (report.control() != null) {
      present.add("'" + report.control().arm() + "'");
    }
    return " (it holds " + String.join(" and ", present) + ")";
  }
}
