package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.experiment.Outcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * How a one-relay round ({@code --design split|identities}) ends on the console, after its answer:
 * its problems (errors on stderr for a refusal or a failure, NOT ESTABLISHED lines otherwise),
 * where its file went, and the exit code.
 */
final class RoundLines {
  private RoundLines() {}

  /**
   * Prints the problems and the file lines; returns the exit code.
   *
   * @param file the round's file, or null when none was written
   * @param beside what else lies beside the file, in words
   */
  static int finish(
      Outcome outcome,
      List<String> problems,
      Path file,
      String beside,
      boolean quiet,
      PrintWriter out,
      PrintWriter err) {
    boolean error = outcome == Outcome.BAD_INPUT || outcome == Outcome.INFRASTRUCTURE;
    for (String problem : problems) {
      if (error) {
        CommandLines.error(err, problem);
      } else {
        out.println("NOT ESTABLISHED: " + problem);
      }
    }
    if (file != null && !quiet) {
      err.println("written to " + file.getParent().toAbsolutePath() + ":");
      err.println("  " + file.getFileName() + "  " + file.toAbsolutePath());
      err.println("  " + beside);
    }
    out.flush();
    err.flush();
    return ExitCode.of(outcome);
  }
}
