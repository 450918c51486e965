package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.DelaySweepHtml;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.experiment.DelaySweepCell;
import dev.ceiling.experiment.DelaySweepPlan;
import dev.ceiling.experiment.DelaySweepPoint;
import dev.ceiling.experiment.DelaySweepProgress;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.DelaySweepResult;
import dev.ceiling.experiment.LinkSweeps;
import dev.ceiling.experiment.LinkSweepsReport;
import dev.ceiling.experiment.LinkSweepsResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * What {@code ceiling sensitivity} prints: progress on stderr (the plan and its duration before the
 * first cell, then one line per cell), and on stdout the answer first, the points, and the file.
 * Formats only: every figure comes from the report.
 */
final class DelaySweepLines implements DelaySweepProgress {
  private final PrintWriter err;
  private final boolean quiet;

  DelaySweepLines(PrintWriter err, boolean quiet) {
    this.err = err;
    this.quiet = quiet;
  }

  @Override
  public void rigUp(String arm, RigDescriptor rig) {
    if (!quiet) {
      err.println("relay up (arm '" + arm + "'), pid " + rig.relayPid());
    }
  }

  @Override
  public void planned(DelaySweepPlan plan, Duration estimate) {
    if (quiet) {
      return;
    }
    err.println(
        String.format(
            Locale.ROOT,
            "plan: link '%s', delays %s ms%s x %d repeats, %.1f events/s offered%s (%s), seed %d%s;"
                + " %d cells, about %d min %d s",
            plan.link(),
            plan.delaysMs(),
            plan.holdoutDelayMs() == null
                ? ""
                : " and a holdout at " + plan.holdoutDelayMs() + " ms (left out of the lines)",
            plan.repeats(),
            plan.offeredPerS(),
            plan.pointRamp() != null
                ? " at most, each cell a ramp at its delay"
                : plan.perPointOffer() == null ? "" : " at first, then per point",
            plan.offerRule(),
            plan.seed(),
            plan.expectedRoundTrips() == null
                ? ""
                : ", declared " + plan.expectedRoundTrips() + " +- " + plan.margin(),
            plan.cells().size(),
            estimate.toMinutes(),
            estimate.toSecondsPart()));
  }

  @Override
  public void resuming(DelaySweepReport stored) {
    if (!quiet) {
      int sessions = stored.sessions() == null ? 1 : stored.sessions().size();
      err.println(
          "resuming: "
              + stored.cells().size()
              + " of "
              + stored.plan().cells().size()
              + " cells are in the file from "
              + sessions
              + (sessions == 1 ? " session" : " sessions")
              + " and are kept; the other "
              + (stored.plan().cells().size() - stored.cells().size())
              + " run now, in the plan's order");
    }
  }

  @Override
  public void measured(DelaySweepReport soFar) {
    if (quiet || soFar.cells().isEmpty()) {
      return;
    }
    DelaySweepCell c = soFar.cells().get(soFar.cells().size() - 1);
    // A relay without a worker metric: each figure named by its source.
    boolean client = c.ceilingFromClient();
    String figures =
        client
            ? "ceiling from the client "
                + RoundLines.num(c.clientCeilingPerS(), "%.1f")
                + "/s, "
                + RoundLines.num(c.turnsPerOkTrue(), "%.2f")
                + " turns per OK-true answer"
            : "worker "
                + RoundLines.num(c.cell().auditCompletedPerS(), "%.1f")
                + "/s, "
                + RoundLines.num(c.turnsPerEvent(), "%.2f")
                + " turns per entry";
    String notUsed = client ? c.notUsed() : "not steady or not busy";
    err.println(
        String.format(
            Locale.ROOT,
            "[cell %d/%d] d = %s ms, offered %s/s: %s, %s",
            soFar.cells().size(),
            soFar.plan().cells().size(),
            CommandLines.FINITE_DOUBLE.format(c.planned().addedDelayMs()),
            CommandLines.FINITE_DOUBLE.format(c.cell().offeredPerS()),
            figures,
            c.ceilingUsed()
                ? "used"
                : c.use() + (c.problems().isEmpty() ? " (" + notUsed + ")" : " " + kinds(c))));
  }

  @Override
  public void linksPlanned(LinkSweepsReport.Plan plan) {
    if (!quiet) {
      err.println(
          "plan: each of links "
              + plan.links()
              + " in turn, the others at zero added delay"
              + (plan.expectedRoundTrips().isEmpty()
                  ? ""
                  : ", declared " + new java.util.TreeMap<>(plan.expectedRoundTrips()))
              + "; written to "
              + LinkSweeps.FILE);
    }
  }

  @Override
  public void link(String link, int index, int of) {
    if (!quiet) {
      err.println("link '" + link + "' (" + index + " of " + of + "), in " + link + "/");
    }
  }

  @Override
  public void contrastArm(java.util.Map<String, String> parameters) {
    if (!quiet) {
      err.println("contrast arm: the same plan on a relay started with " + parameters);
    }
  }

  @Override
  public void warning(String message) {
    err.println("warning: " + message);
  }

  private static String kinds(DelaySweepCell c) {
    return c.problems().stream().map(p -> p.kind().name()).distinct().toList().toString();
  }

  /** Prints the outcome and returns the exit code. */
  static int finish(DelaySweepResult r, Path html, RoundLines.Console c) {
    PrintWriter out = c.out();
    boolean quiet = c.quiet();
    r.problems().forEach(p -> CommandLines.error(c.err(), p));
    if (r.contrast() != null) {
      out.println(r.contrast().answer());
    }
    DelaySweepReport report = r.report();
    if (report != null) {
      out.println((r.contrast() != null ? "base arm: " : "") + report.answer());
      if (!quiet) {
        out.println("delay_ms  cells_used  worker_per_s  ms_per_event  turns_per_entry");
        for (DelaySweepPoint p : report.points()) {
          out.println(
              String.format(
                  Locale.ROOT,
                  "%8s  %4d of %-3d  %12s  %12s  %15s",
                  CommandLines.FINITE_DOUBLE.format(p.addedDelayMs()),
                  p.cellsUsed(),
                  p.cellsMeasured(),
                  RoundLines.num(p.meanCeilingPerS(), "%.1f"),
                  RoundLines.num(p.meanMsPerEvent(), "%.2f"),
                  RoundLines.num(p.wireTurnsPerEvent(), "%.2f")));
        }
        out.println("what a pass cannot say: " + DelaySweepHtml.CANNOT_SAY);
        out.println("file: " + r.file());
        if (html != null) {
          out.println("html: " + html);
        }
      }
    }
    if (r.contrast() != null && !quiet) {
      if (r.contrast().contrast() != null) {
        out.println("contrast arm: " + r.contrast().contrast().answer());
      }
      out.println("contrast: " + r.contrastFile());
    }
    return ExitCode.of(r.outcome());
  }

  /** Prints a sweep per link's outcome: the answer, the table, the files; the exit code. */
  static int finishLinks(LinkSweepsResult r, Path html, RoundLines.Console c) {
    PrintWriter out = c.out();
    boolean quiet = c.quiet();
    r.problems().forEach(p -> CommandLines.error(c.err(), p));
    out.println(r.report().answer());
    r.report().table().forEach(out::println);
    if (!quiet) {
      for (LinkSweepsReport.Row row : r.report().links()) {
        out.println("link '" + row.link() + "': " + row.answer());
      }
      out.println("what a pass cannot say: " + DelaySweepHtml.CANNOT_SAY);
      out.println("file: " + r.file());
      if (html != null) {
        out.println("html: " + html);
      }
    }
    return ExitCode.of(r.outcome());
  }
}
