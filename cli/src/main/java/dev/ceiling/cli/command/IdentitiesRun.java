package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.IdentitiesRound;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.RoundResult;
import dev.ceiling.verdict.IdentitiesReport;
import dev.ceiling.verdict.IdentitiesRow;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code ceiling experiment --design identities}: runs the defaults round and prints its answer,
 * one line per N and where the file went.
 */
final class IdentitiesRun {
  private IdentitiesRun() {}

  /** Runs the configured round; returns the exit code. */
  static int run(IdentitiesRound.Builder b, boolean quiet, PrintWriter out, PrintWriter err) {
    RoundResult<IdentitiesRoundReport> r;
    try {
      r = b.run();
    } catch (ExperimentException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    IdentitiesReport v = r.report() == null ? null : r.report().verdict();
    if (v != null) {
      out.println(v.words());
      if (!quiet) {
        for (IdentitiesRow row : v.rows()) {
          out.println(line(row));
        }
      }
    }
    return RoundLines.finish(
        r.outcome(),
        r.problems(),
        r.file(),
        "the cells' journals (journals/) and the relay's state (rig/) beside it",
        quiet,
        out,
        err);
  }

  /** " N = 10: 100.0/s accepted (0.222 of the offer), 78% refused, busy 0.35: LIMITER". */
  private static String line(IdentitiesRow r) {
    return String.format(
        Locale.ROOT,
        "  N = %d: %s/s accepted (%s of the offer), %s refused by the limiter, busy %s, %d of %d"
            + " cells used: %s",
        r.identities(),
        r.acceptedPerS() == null ? "n/a" : String.format(Locale.ROOT, "%.1f", r.acceptedPerS()),
        r.acceptedOverOffered() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%.3f", r.acceptedOverOffered()),
        r.limiterRefusedFraction() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%.0f%%", 100 * r.limiterRefusedFraction()),
        r.busyFraction() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", r.busyFraction()),
        r.used(),
        r.cells(),
        r.reading());
  }
}
