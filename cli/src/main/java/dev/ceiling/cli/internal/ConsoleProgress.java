package dev.ceiling.cli.internal;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.experiment.ExperimentProgress;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress on stderr: on a terminal, a bar with cell i/N and an ETA rewritten in place; otherwise
 * (CI, a pipe, a file) one line per cell with the figures an operator watches.
 */
public final class ConsoleProgress implements ExperimentProgress {
  private final PrintWriter err;
  private final boolean terminal;
  private final boolean verbose;
  private long sweepStartNanos;
  private int doneAtStart;
  private String arm = "";

  public ConsoleProgress(PrintWriter err, boolean terminal, boolean verbose) {
    this.err = err;
    this.terminal = terminal;
    this.verbose = verbose;
  }

  /** Progress on {@code err} (a command's stderr); a bar only when this process has a terminal. */
  // On the JDK 17 we target, console() is null exactly when there is no terminal; JDK 22+ would
  // need Console.isTerminal(), which 17 lacks.
  @SuppressWarnings("SystemConsoleNull")
  public static ConsoleProgress forStderr(PrintWriter err, boolean verbose) {
    return new ConsoleProgress(err, System.console() != null, verbose);
  }

  @Override
  public void rigUp(String arm, RigDescriptor rig) {
    clearBar();
    err.printf(
        Locale.ROOT,
        "rig up: arm '%s', relay pid %s, metrics %s, limiter %s, queue capacity %s%n",
        arm,
        rig.relayPid(),
        rig.metricsUrl() == null ? "none (client-side evidence)" : rig.metricsUrl(),
        rig.limiterSettings(),
        rig.queueCapacity());
    if (!rig.relayInfo().isEmpty()) {
      err.println("relay says: " + rig.relayInfo());
    }
  }

  @Override
  public void sweepStarted(String arm, int planned, int alreadyDone) {
    this.arm = arm;
    this.sweepStartNanos = System.nanoTime();
    this.doneAtStart = alreadyDone;
    err.printf(
        Locale.ROOT,
        "sweep '%s': %d cells planned%s%n",
        arm,
        planned,
        alreadyDone > 0 ? ", " + alreadyDone + " already in the journal" : "");
  }

  @Override
  public void cellFinished(Cell c, int done, int planned) {
    String line =
        String.format(
            Locale.ROOT,
            "[%s %d/%d] %.0f/s r%d%s: acc/off %.4f, completed/s %s, outstanding %s, busy %s,"
                + " service p50 %s ms, scheduled p99 %s ms%s",
            arm,
            done,
            planned,
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
            c.generatorBound() ? " GENERATOR-BOUND: " + c.generatorBoundReason() : "");
    if (!terminal) {
      err.println(line);
      return;
    }
    double elapsedS = (System.nanoTime() - sweepStartNanos) / 1e9;
    int measured = done - doneAtStart;
    double etaS = measured == 0 ? 0 : elapsedS / measured * (planned - done);
    int width = 30;
    int filled = (int) Math.round(width * (double) done / planned);
    clearBar();
    err.println(line);
    err.printf(
        Locale.ROOT,
        "\r[%s%s] %d/%d cells, ETA %s",
        "#".repeat(filled),
        ".".repeat(width - filled),
        done,
        planned,
        eta(etaS));
    err.flush();
  }

  @Override
  public void generatorLine(String line) {
    if (verbose) {
      clearBar();
      err.println("  generator: " + line);
    }
  }

  @Override
  public void warning(String message) {
    clearBar();
    err.println("warning: " + message);
  }

  private void clearBar() {
    if (terminal) {
      err.print("\r\033[K");
    }
  }

  private static String eta(double s) {
    long sec = Math.round(s);
    return String.format(Locale.ROOT, "%d:%02d", sec / 60, sec % 60);
  }

  /** A latency percentile: "n/a" for an empty distribution, which has none. */
  private static String percentile(Double v, int decimals) {
    return v == null ? "n/a" : fmt(v, decimals);
  }

  private static String fmt(Double v, int decimals) {
    return v == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
