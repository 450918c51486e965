package dev.ceiling.cli.command;

import dev.ceiling.experiment.ExplainPlan;
import dev.ceiling.experiment.ExplainProgress;
import dev.ceiling.experiment.ExplainResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code ceiling explain} prints on stderr between its rounds: the plan with its one estimate
 * before the first round, each round as it starts (with the estimate left) and as it ends. Each
 * round prints its own cells through its own listener. Nothing with --quiet.
 */
final class ExplainLines implements ExplainProgress {
  private final PrintWriter err;
  private final boolean quiet;

  ExplainLines(PrintWriter err, boolean quiet) {
    this.err = err;
    this.quiet = quiet;
  }

  @Override
  public void planned(ExplainPlan plan, Path file) {
    if (quiet) {
      return;
    }
    err.println(
        "explain: "
            + plan.rounds().size()
            + " round(s) on profile '"
            + plan.profile()
            + "', about "
            + time(plan.estimateS())
            + " in all (estimate); the plan: "
            + file);
    int i = 0;
    for (ExplainPlan.Round r : plan.rounds()) {
      err.println(
          "  "
              + ++i
              + ". "
              + r.name()
              + " in "
              + r.dir()
              + "/: "
              + r.cells()
              + " cells, about "
              + time(r.estimateS()));
    }
    for (ExplainPlan.NotRun n : plan.notRun()) {
      err.println("  cannot run: " + n.name() + ": " + n.reason());
    }
    err.flush();
  }

  @Override
  public void roundStarting(
      ExplainPlan.Round round, int index, int of, Duration left, String continued) {
    if (quiet) {
      return;
    }
    err.println(
        "round "
            + index
            + " of "
            + of
            + ": "
            + round.name()
            + " in "
            + round.dir()
            + "/, about "
            + time(round.estimateS())
            + " ("
            + time(left.toMillis() / 1000.0)
            + " left in all)"
            + (continued == null ? "" : "; " + continued));
    err.flush();
  }

  @Override
  public void roundEnded(ExplainResult.RoundEnd end, Duration took) {
    if (quiet) {
      return;
    }
    String how =
        end.outcome() == null
            ? end.ran().name().replace('_', ' ')
            : end.outcome().name().replace('_', ' ');
    String first = end.problems().isEmpty() ? "" : ": " + end.problems().get(0);
    err.println(
        took == null
            ? end.name() + ": " + how + ", measured by the run resumed"
            : end.name() + ": " + how + " in " + time(took.toMillis() / 1000.0) + first);
    err.flush();
  }

  /** "45 s", "6 min 40 s". */
  static String time(double seconds) {
    long s = Math.round(seconds);
    return s < 60 ? s + " s" : (s / 60) + " min " + (s % 60) + " s";
  }
}
