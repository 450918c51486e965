package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.Answer;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.Outcome;
import java.io.PrintWriter;
import java.nio.file.Path;

/** Prints the summary, the problems and the paths of everything written. */
final class ExperimentLines {
  private ExperimentLines() {}

  /** {@code --quiet}: the answer only, or the problems that left no report to answer from. */
  static int printAnswer(ExperimentResult r, PrintWriter out) {
    if (r.report() != null) {
      out.print(Answer.of(r.report()).text());
    }
    for (String problem : r.problems()) {
      out.println("NOT ESTABLISHED: " + problem);
    }
    return ExitCode.of(r.outcome());
  }

  static int print(ExperimentResult r, PrintWriter out, PrintWriter err) {
    if (r.report() != null) {
      out.print(Summary.text(r.report()));
    }
    // A refusal (bad input, e.g. a resume whose relay differs) or a failure is an error, not a
    // verdict: it goes to stderr as one error line per problem.
    boolean error = r.outcome() == Outcome.BAD_INPUT || r.outcome() == Outcome.INFRASTRUCTURE;
    for (String problem : r.problems()) {
      if (error) {
        CommandLines.error(err, problem);
      } else {
        out.println("NOT ESTABLISHED: " + problem);
      }
    }
    err.println("written to " + r.outDir().toAbsolutePath() + ":");
    if (r.reportJson() != null) {
      err.println("  report.json  " + r.reportJson().toAbsolutePath());
    }
    for (Path extra : r.extraFiles()) {
      err.println("  " + extra.getFileName() + "  " + extra.toAbsolutePath());
    }
    err.println("  half-runs and journals beside them (half-*.json, journal-*.jsonl)");
    return ExitCode.of(r.outcome());
  }
}
