package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.ReportFiles;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Model;
import dev.ceiling.verdict.ModelConfig;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ceiling model}: the queueing arithmetic, for review without services. */
@Command(
    name = "model",
    mixinStandardHelpOptions = true,
    header = "Queueing arithmetic of a bounded audit queue (not evidence).",
    description = {
      "Deterministic queueing arithmetic that reproduces the fill physics of a bounded audit queue"
          + " drained by one worker. For review and tests: never evidence, and the output says so.",
      "Exit codes: 1 always (a model establishes nothing), 2 bad usage, 3 a report not written.",
      ""
    })
public final class ModelCommand implements Callable<Integer> {
  static final int MAX_QUEUE_CAPACITY = 100_000_000;

  @Spec CommandSpec spec;

  @Option(
      names = "--rates",
      split = ",",
      paramLabel = "EVENTS_PER_S",
      defaultValue = "250,500,750,1000",
      description =
          "Offered rates, events/s, ascending, comma-separated (default: ${DEFAULT-VALUE}).")
  List<Double> rates;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = "Seconds per cell (default: ${DEFAULT-VALUE}).")
  double durationS;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      defaultValue = "3",
      description = "Repeats per rate, 1 to 1000 (default: ${DEFAULT-VALUE}).")
  int repeats;

  @Option(
      names = "--queue-capacity",
      paramLabel = "ENTRIES",
      defaultValue = "1000",
      description = "The audit queue's capacity, entries (default: ${DEFAULT-VALUE}).")
  int queueCapacity;

  @Option(
      names = "--worker-rate",
      paramLabel = "PER_S",
      defaultValue = "500",
      description = "The worker's completions/s (default: ${DEFAULT-VALUE}).")
  double workerRatePerS;

  @Option(
      names = "--gap",
      paramLabel = "SECONDS",
      defaultValue = "0",
      description = "Seconds between cells, the queue draining (default: ${DEFAULT-VALUE}).")
  double gapS;

  @Option(names = "--json", paramLabel = "FILE", description = "Write the model report here.")
  Path json;

  @Option(names = "--html", paramLabel = "FILE", description = "Write the HTML report here.")
  Path html;

  @Override
  public Integer call() {
    new OptionChecks()
        .rates("--rates", rates)
        .positive("--duration", durationS, OptionChecks.MAX_DURATION_S, "seconds")
        .between("--repeats", repeats, 1, OptionChecks.MAX_REPEATS, "")
        .between("--queue-capacity", queueCapacity, 1, MAX_QUEUE_CAPACITY, "entries")
        .positive("--worker-rate", workerRatePerS, OptionChecks.MAX_RATE_PER_S, "completions/s")
        .between("--gap", gapS, 0, OptionChecks.MAX_DURATION_S, "seconds")
        .files(new OutputPaths().output("--json", json).output("--html", html))
        .orFail(spec.commandLine());
    PrintWriter err = spec.commandLine().getErr();
    ExperimentReport report;
    try {
      report =
          Model.report(
              new ModelConfig(
                  rates,
                  durationS,
                  repeats,
                  queueCapacity,
                  workerRatePerS,
                  gapS,
                  ModelConfig.SEED_JITTER_STEP),
              VerdictConfig.defaults());
    } catch (IllegalArgumentException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    try {
      ReportFiles.write(report, json, html);
    } catch (IOException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("MODEL: " + Model.NEVER_EVIDENCE);
    out.print(Summary.text(report));
    // A model can never establish anything.
    return ExitCode.NOT_ESTABLISHED;
  }
}
