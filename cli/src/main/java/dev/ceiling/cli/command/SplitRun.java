package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.RoundResult;
import dev.ceiling.experiment.SplitRound;
import dev.ceiling.experiment.SplitRoundReport;
import dev.ceiling.verdict.SplitRate;
import dev.ceiling.verdict.SplitReport;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code ceiling experiment --design split}: runs the split round and prints its answer, one line
 * per rate and where the file went.
 */
final class SplitRun {
  private SplitRun() {}

  /** The "auto" grid of the split design: multiples of one lock's predicted ceiling. */
  static final double[] AUTO_LOCK_MULTIPLES = {1.5, 3.0};

  /** Runs the configured round; returns the exit code. */
  static int run(SplitRound.Builder b, boolean quiet, PrintWriter out, PrintWriter err) {
    RoundResult<SplitRoundReport> r;
    try {
      r = b.run();
    } catch (ExperimentException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    SplitReport v = r.report() == null ? null : r.report().verdict();
    if (v != null) {
      out.println(v.answer().name().replace('_', ' ') + ": " + v.words());
      if (!quiet) {
        for (SplitRate rate : v.rates()) {
          out.println(line(rate));
        }
      }
    }
    return RoundLines.finish(
        r.outcome(),
        r.problems(),
        r.file(),
        "journal.jsonl and the relay's state (rig/) beside it",
        quiet,
        out,
        err);
  }

  /** " 120/s: one 40.1/s, split 79.9/s, busy 0.26/0.51: RAISES". */
  private static String line(SplitRate r) {
    String reading = r.masked() ? "MASKED_BY_WORKER" : r.reading().reading().name();
    return String.format(
        Locale.ROOT,
        "  %s/s: one %s/s, split %s/s, pool busy %s/%s: %s",
        num(r.offeredPerS()),
        fig(r.oneAcceptedPerS()),
        fig(r.splitAcceptedPerS()),
        busy(r.onePoolBusy()),
        busy(r.splitPoolBusy()),
        reading);
  }

  private static String num(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  private static String fig(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String busy(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
  }
}
