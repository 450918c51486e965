package dev.ceiling.cli.command;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Model;
import dev.ceiling.verdict.ModelConfig;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ceiling model}: the queueing arithmetic, for review without services. */
@Command(
    name = "model",
    mixinStandardHelpOptions = true,
    description = {
      "Deterministic queueing arithmetic that reproduces the fill physics of a bounded audit queue",
      "drained by one worker. For review and tests: never evidence, and the output says so."
    })
public final class ModelCommand implements Callable<Integer> {
  @Option(
      names = "--rates",
      split = ",",
      defaultValue = "250,500,750,1000",
      description = "events/s")
  List<Double> rates;

  @Option(names = "--duration", defaultValue = "10", description = "seconds per cell")
  double durationS;

  @Option(names = "--repeats", defaultValue = "3")
  int repeats;

  @Option(names = "--queue-capacity", defaultValue = "1000")
  int queueCapacity;

  @Option(names = "--worker-rate", defaultValue = "500", description = "worker completions/s")
  double workerRatePerS;

  @Option(names = "--gap", defaultValue = "0", description = "seconds between cells (drain time)")
  double gapS;

  @Option(names = "--json", description = "Write the model report here.")
  Path json;

  @Option(names = "--html", description = "Write the HTML report here.")
  Path html;

  @Override
  public Integer call() {
    ExperimentReport report;
    try {
      report =
          Model.report(
              new ModelConfig(rates, durationS, repeats, queueCapacity, workerRatePerS, gapS),
              VerdictConfig.defaults());
    } catch (IllegalArgumentException e) {
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
      System.err.println("error: " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    System.out.println("MODEL: " + Model.NEVER_EVIDENCE);
    System.out.print(Summary.text(report));
    // A model can never establish anything.
    return ExitCode.NOT_ESTABLISHED;
  }
}
