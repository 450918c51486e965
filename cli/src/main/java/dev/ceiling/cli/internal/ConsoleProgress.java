package dev.ceiling.cli.internal;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.experiment.ExperimentProgress;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress on stderr: on a terminal, a bar with cell i/N and the time left rewritten in place;
 * otherwise (CI, a pipe, a file) one line per cell with the figures an operator watches and the
 * time left. Quiet: nothing but warnings, so a script sees only the answer on stdout and what went
 * wrong.
 */
public final class ConsoleProgress implements ExperimentProgress {
  private final PrintWriter err;
  private final boolean terminal;
  private final boolean verbose;
  private final boolean quiet;
  private final LongSupplier nanoClock;
  private long sweepStartNanos;
  private int doneAtStart;
  private String arm = "";

  public ConsoleProgress(PrintWriter err, boolean terminal, boolean verbose) {
    this(err, terminal, verbose, false, System::nanoTime);
  }

  /**
   * @param quiet print warnings only
   * @param nanoClock the monotonic clock the time left is estimated from ({@code System::nanoTime})
   */
  public ConsoleProgress(
      PrintWriter err, boolean terminal, boolean verbose, boolean quiet, LongSupplier nanoClock) {
    this.err = err;
    this.terminal = terminal;
    this.verbose = verbose && !quiet;
    this.quiet = quiet;
    this.nanoClock = nanoClock;
  }

  /** Progress on {@code err} (a command's stderr); a bar only when this process has a terminal. */
  // On the JDK 17 we target, console() is null exactly when there is no terminal; JDK 22+ would
  // need Console.isTerminal(), which 17 lacks.
  @SuppressWarnings("SystemConsoleNull")
  public static ConsoleProgress forStderr(PrintWriter err, boolean verbose, boolean quiet) {
    return new ConsoleProgress(err, System.console() != null, verbose, quiet, System::nanoTime);
  }

  @Override
  public void rigUp(String arm, RigDescriptor rig) {
    if (quiet) {
      return;
    }
    clearBar();
    err.printf(
        Locale.ROOT,
        "rig up: arm '%s', relay pid %s, metrics %s, limiter %s, queue capacity %s%n",
        arm,
        rig.relayPid(),
        rig.metricsUrl() == null
            ? "none (client-side evidence)"
            : Redaction.redact(rig.metricsUrl()),
        rig.limiterSettings(),
        rig.queueCapacity());
    if (!rig.relayInfo().isEmpty()) {
      err.println("relay says: " + Redaction.redact(rig.relayInfo().toString()));
    }
  }

  @Override
  public void sweepStarted(String arm, int planned, int alreadyDone) {
    this.arm = arm;
    this.sweepStartNanos = nanoClock.getAsLong();
    this.doneAtStart = alreadyDone;
    if (quiet) {
      return;
    }
    err.printf(
        Locale.ROOT,
        "sweep '%s': %d cells planned%s%n",
        arm,
        planned,
        alreadyDone > 0 ? ", " + alreadyDone + " already in the journal" : "");
  }

  @Override
  public void cellFinished(Cell c, int done, int planned) {
    if (quiet) {
      return;
    }
    double elapsedS = (nanoClock.getAsLong() - sweepStartNanos) / 1e9;
    String left = timeLeft(elapsedS, done - doneAtStart, planned - done);
    String line =
        String.format(
            Locale.ROOT,
            "[%s cell %d/%d, %s] %.0f/s r%d%s: acc/off %.4f, completed/s %s, outstanding %s, busy %s,"
                + " service p50 %s ms, scheduled p99 %s ms%s",
            arm,
            done,
            planned,
            left,
            c.offeredPerS(),
            c.repeat(),
            c.twoCommunity() ? " (2 communities)" : "",
            c.acceptedOverOffered(),
            fmt(c.auditCompletedPerS(), 1),
            c.outstandingDelta() == null
                ? "-"
                : String.format(Locale.ROOT, "%+d", c.outstandingDelta()),
            fmt(c.auditBusyFraction(), 2),
            percentile(c.service().p50Ms(), 2),
            percentile(c.scheduled().p99Ms(), 1),
            c.generatorBound()
                ? " GENERATOR-BOUND: " + Redaction.redact(c.generatorBoundReason())
                : "");
    if (!terminal) {
      err.println(line);
      return;
    }
    int width = 30;
    int filled = (int) Math.round(width * (double) done / planned);
    clearBar();
    err.println(line);
    err.printf(
        Locale.ROOT,
        "\r[%s%s] cell %d/%d, %s",
        "#".repeat(filled),
        ".".repeat(width - filled),
        done,
        planned,
        left);
    err.flush();
  }

  @Override
  public void generatorLine(String line) {
    if (verbose) {
      clearBar();
      err.println("  generator: " + Redaction.redact(line));
    }
  }

  @Override
  public void warning(String message) {
    clearBar();
    err.println("warning: " + Redaction.redact(message));
  }

  private void clearBar() {
    if (terminal) {
      err.print("\r\033[K");
    }
  }

  /**
   * "about 1 min 40 s left": the cells still planned at the mean time per cell measured so far in
   * this sweep. Cells found in the journal on resuming took no time here, so they are left out of
   * the mean; before any cell is measured there is nothing to estimate from.
   *
   * @param elapsedS seconds since this sweep started
   * @param measured cells measured since then
   * @param remaining cells still planned
   */
  static String timeLeft(double elapsedS, int measured, int remaining) {
    if (remaining <= 0) {
      return "done";
    }
    if (measured <= 0) {
      return "time left not yet known";
    }
    // Rounded to 5 s: the estimate is not better than that, and a jittering last digit reads as
    // precision it does not have.
    long s = Math.max(5, Math.round(elapsedS / measured * remaining / 5) * 5);
    if (s < 60) {
      return "about " + s + " s left";
    }
    if (s < 3600) {
      return s % 60 == 0
          ? "about " + s / 60 + " min left"
          : "about " + s / 60 + " min " + s % 60 + " s left";
    }
    return "about " + s / 3600 + " h " + (s % 3600) / 60 + " min left";
  }

  /** A latency percentile: "n/a" for an empty distribution, which has none. */
  private static String percentile(Double v, int decimals) {
    return v == null ? "n/a" : fmt(v, decimals);
  }

  private static String fmt(Double v, int decimals) {
    return v == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
