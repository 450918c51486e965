package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.Answer;
import dev.ceiling.cli.report.DefaultsRoundHtml;
import dev.ceiling.cli.report.ReportFiles;
import dev.ceiling.cli.report.Summary;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.RoundResult;
import dev.ceiling.experiment.ShutdownHook;
import dev.ceiling.experiment.SplitRoundReport;
import dev.ceiling.verdict.IdentitiesReport;
import dev.ceiling.verdict.IdentitiesRow;
import dev.ceiling.verdict.SplitRate;
import dev.ceiling.verdict.SplitReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.ToIntFunction;

/**
 * What a measuring round prints once it ran, for every design ({@code experiment} and its {@code
 * --design split|identities}): the answer on stdout, the problems (errors on stderr for a refusal
 * or a failure, NOT ESTABLISHED lines otherwise), where the files went, and the exit code. Formats
 * only: every figure comes from the round's report.
 */
final class RoundLines {
  private RoundLines() {}

  /** Where a command prints, and whether it prints only the answer ({@code --quiet}). */
  record Console(PrintWriter out, PrintWriter err, boolean quiet) {}

  /** A round's run; a refusal before it starts is an {@link ExperimentException}. */
  interface Round<R> {
    R run() throws ExperimentException;
  }

  /**
   * Runs {@code round} and prints its result with {@code print}; a refusal is one error line and
   * exit 2. Returns the exit code.
   */
  static <R> int run(Round<R> round, Console c, ToIntFunction<R> print) {
    R r;
    try {
      r = round.run();
    } catch (ExperimentException e) {
      CommandLines.error(c.err(), e.getMessage());
      return ExitCode.USAGE;
    }
    return print.applyAsInt(r);
  }

  /**
   * Runs {@code run} under a hook that holds the JVM's exit, on Ctrl-C or SIGTERM, until what the
   * run prints is printed (longer than the run's own shutdown grace), then exits 130: SIGTERM would
   * otherwise exit 143.
   */
  static int holdingExit(IntSupplier run) {
    // On Ctrl-C the JVM exits once every shutdown hook has returned. The run's own hook returns
    // when it does; this one holds the exit until the answer and the "written to" lines are
    // printed and flushed, so an interrupted run still says what it wrote.
    ShutdownHook hold =
        ShutdownHook.install(
            "ceiling-print-before-exit",
            () -> {},
            PRINT_GRACE,
            () -> Runtime.getRuntime().halt(ExitCode.INTERRUPTED));
    try {
      return run.getAsInt();
    } finally {
      hold.close();
    }
  }

  /** Longer than the experiment's own shutdown grace (the running cell plus the teardown). */
  static final Duration PRINT_GRACE = Duration.ofSeconds(90);

  // ---- The A/B ----

  /**
   * The summary (with {@code --quiet}, the answer only), the problems, every file written; flushed
   * before it returns, as a run interrupted by Ctrl-C exits then.
   */
  static int experiment(ExperimentResult r, Console c) {
    if (c.quiet()) {
      if (r.report() != null) {
        c.out().print(Answer.of(r.report()).text());
      }
      // No stderr with --quiet: even a refusal is a line of the answer.
      r.problems().forEach(p -> c.out().println("NOT ESTABLISHED: " + p));
    } else {
      if (r.report() != null) {
        c.out().print(Summary.text(r.report()));
      }
      problems(r.outcome(), r.problems(), c);
      c.err().println("written to " + r.outDir().toAbsolutePath() + ":");
      if (r.reportJson() != null) {
        c.err().println("  report.json  " + r.reportJson().toAbsolutePath());
      }
      for (Path extra : r.extraFiles()) {
        c.err().println("  " + extra.getFileName() + "  " + extra.toAbsolutePath());
      }
      c.err().println("  half-runs and journals beside them (half-*.json, journal-*.jsonl)");
    }
    c.out().flush();
    c.err().flush();
    return ExitCode.of(r.outcome());
  }

  // ---- The split round ----

  /** The "auto" grid of the split design: multiples of one lock's predicted ceiling. */
  static final double[] AUTO_LOCK_MULTIPLES = {1.5, 3.0};

  /** The answer, one line per rate, the file. */
  static int split(RoundResult<SplitRoundReport> r, Console c) {
    SplitReport v = r.report() == null ? null : r.report().verdict();
    if (v != null) {
      c.out().println(v.answer().name().replace('_', ' ') + ": " + v.words());
      if (!c.quiet()) {
        v.rates().forEach(rate -> c.out().println(line(rate)));
      }
    }
    return finish(r, "journal.jsonl and the relay's state (rig/) beside it", c);
  }

  /** " 120/s: one 40.1/s, split 79.9/s, busy 0.26/0.51: RAISES". */
  private static String line(SplitRate r) {
    String reading = r.masked() ? "MASKED_BY_WORKER" : r.reading().reading().name();
    return String.format(
        Locale.ROOT,
        "  %s/s: one %s/s, split %s/s, pool busy %s/%s: %s",
        CommandLines.FINITE_DOUBLE.format(r.offeredPerS()),
        num(r.oneAcceptedPerS(), "%.1f"),
        num(r.splitAcceptedPerS(), "%.1f"),
        num(r.onePoolBusy(), "%.2f"),
        num(r.splitPoolBusy(), "%.2f"),
        reading);
  }

  // ---- The defaults round ----

  /** The answer, one line per N, the file. */
  static int identities(RoundResult<IdentitiesRoundReport> r, Console c) {
    IdentitiesReport v = r.report() == null ? null : r.report().verdict();
    if (v != null) {
      c.out().println(v.words());
      if (!c.quiet()) {
        v.rows().forEach(row -> c.out().println(line(row)));
      }
    }
    String beside = "the cells' journals (journals/) and the relay's state (rig/) beside it";
    if (r.report() != null && r.file() != null) {
      Path page = r.file().resolveSibling(DefaultsRoundHtml.FILE);
      try {
        ReportFiles.writeText(page, () -> DefaultsRoundHtml.render(r.report()));
        beside = DefaultsRoundHtml.FILE + "  " + page.toAbsolutePath() + "\n  " + beside;
      } catch (IOException e) {
        // The round's own file holds every figure; a page that cannot be written loses none.
        CommandLines.error(c.err(), e.getMessage());
      }
    }
    return finish(r, beside, c);
  }

  /** " N = 10: 100.0/s accepted (0.222 of the offer), 78% refused, busy 0.35: LIMITER". */
  private static String line(IdentitiesRow r) {
    return String.format(
        Locale.ROOT,
        "  N = %d: %s/s accepted (%s of the offer), %s refused by the limiter, busy %s, %d of %d"
            + " cells used: %s",
        r.identities(),
        num(r.acceptedPerS(), "%.1f"),
        num(r.acceptedOverOffered(), "%.3f"),
        r.limiterRefusedFraction() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%.0f%%", 100 * r.limiterRefusedFraction()),
        num(r.busyFraction(), "%.2f"),
        r.used(),
        r.cells(),
        r.reading());
  }

  // ---- Shared ----

  /**
   * A one-relay round's problems and file lines; the exit code.
   *
   * @param beside what else lies beside the round's file, in words
   */
  private static int finish(RoundResult<?> r, String beside, Console c) {
    problems(r.outcome(), r.problems(), c);
    if (r.file() != null && !c.quiet()) {
      c.err().println("written to " + r.file().getParent().toAbsolutePath() + ":");
      c.err().println("  " + r.file().getFileName() + "  " + r.file().toAbsolutePath());
      c.err().println("  " + beside);
    }
    c.out().flush();
    c.err().flush();
    return ExitCode.of(r.outcome());
  }

  /**
   * A refusal (bad input, e.g. a resume whose relay differs) or a failure is an error, not a
   * verdict: one error line per problem on stderr; otherwise NOT ESTABLISHED lines on stdout.
   */
  static void problems(Outcome outcome, List<String> problems, Console c) {
    boolean error = outcome == Outcome.BAD_INPUT || outcome == Outcome.INFRASTRUCTURE;
    for (String problem : problems) {
      if (error) {
        CommandLines.error(c.err(), problem);
      } else {
        c.out().println("NOT ESTABLISHED: " + problem);
      }
    }
  }

  /** A figure in {@code format}, or "n/a" where there is none. */
  static String num(Double v, String format) {
    return v == null ? "n/a" : String.format(Locale.ROOT, format, v);
  }
}
