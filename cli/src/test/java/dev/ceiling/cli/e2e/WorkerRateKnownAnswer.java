package dev.ceiling.cli.e2e;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.CellAssessment;
import dev.ceiling.verdict.VerdictReport;
import dev.ceiling.verdict.WorkerRate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A worker-rate known answer, judged in a fixed order so that a failure names what failed: the plan
 * (enough busy, steady cells for the interval to mean anything), the load (a machine so
 * oversubscribed that a sleep-based delay cannot be honoured is no place for a known answer), the
 * evidence (the interval narrow enough to tell the prediction from its neighbours), and only then
 * the bound (the estimate within the tolerance of the predicted range).
 *
 * <p>The prediction comes from the relay's own calibration loops at its start (cold and hot, see
 * docs/REFERENCE_RELAY.md), never from the sweep, so the bound is an independent check.
 *
 * @param minWorkerCells the plan: fewer worker cells than this is a failure of the test's plan
 * @param maxLoadPerCpu the highest load per CPU before a cell at which the answer is judged
 * @param maxHalfWidthFraction the widest interval half-width, as a fraction of the bound's own
 *     half-width ([low x (1 - t), high x (1 + t)]), that still means something next to it: an
 *     interval as wide as the bound could sit anywhere in it
 * @param tolerance the bound: the estimate lies within [low x (1 - t), high x (1 + t)]
 */
record WorkerRateKnownAnswer(
    int minWorkerCells, double maxLoadPerCpu, double maxHalfWidthFraction, double tolerance) {

  /** What the check saw; {@link #failure()} is null when every step passed. */
  record Outcome(String failure, String figures) {}

  Outcome judge(
      VerdictReport verdict, HalfRun treatment, double predictedLow, double predictedHigh) {
    double maxLoad = maxLoadPerCpu(treatment);
    WorkerRate w = verdict.workerRate();
    String failure = failure(w, maxLoad, predictedLow, predictedHigh);
    if (failure != null && failure.startsWith("plan:")) {
      failure += "; verdict failures " + verdict.failureLines();
    }
    return new Outcome(
        failure, figures(w, maxLoad, predictedLow, predictedHigh) + "; cells:" + cells(verdict));
  }

  /** The first step that fails, named, or null when the known answer holds. */
  String failure(WorkerRate w, double maxLoad, double predictedLow, double predictedHigh) {
    int used = w == null ? 0 : w.cellsUsed().size();
    if (used < minWorkerCells) {
      return "plan: "
          + used
          + " busy, steady evidence cells fed the worker rate, the plan needs "
          + minWorkerCells;
    }
    if (maxLoad > maxLoadPerCpu) {
      return String.format(
          Locale.ROOT,
          "load: %.2f runnable tasks per CPU before a cell, above %.2f",
          maxLoad,
          maxLoadPerCpu);
    }
    double lowBound = predictedLow * (1 - tolerance);
    double highBound = predictedHigh * (1 + tolerance);
    double halfWidth = (w.upperPerS() - w.lowerPerS()) / 2;
    double bandHalfWidth = (highBound - lowBound) / 2;
    if (halfWidth > maxHalfWidthFraction * bandHalfWidth) {
      return String.format(
          Locale.ROOT,
          "evidence: the interval's half-width %.1f/s is %.0f%% of the bound's (%.1f/s), above"
              + " %.0f%%",
          halfWidth,
          100 * halfWidth / bandHalfWidth,
          bandHalfWidth,
          100 * maxHalfWidthFraction);
    }
    if (w.estimatePerS() < lowBound || w.estimatePerS() > highBound) {
      return String.format(
          Locale.ROOT,
          "bound: the worker measured %.1f/s, outside [%.1f, %.1f]",
          w.estimatePerS(),
          lowBound,
          highBound);
    }
    return null;
  }

  /** The highest 1-minute load per CPU recorded before any cell of the arm; NaN when none was. */
  static double maxLoadPerCpu(HalfRun half) {
    return half.cells().stream()
        .map(Cell::loadPerCpuBefore)
        .filter(Objects::nonNull)
        .mapToDouble(Double::doubleValue)
        .max()
        .orElse(Double.NaN);
  }

  private static String figures(WorkerRate w, double maxLoad, double low, double high) {
    String measured =
        w == null
            ? "no worker rate"
            : String.format(
                Locale.ROOT,
                "worker measured %.1f/s [%s, %s] from %d cells",
                w.estimatePerS(),
                w.lowerPerS(),
                w.upperPerS(),
                w.cellsUsed().size());
    return String.format(
        Locale.ROOT,
        "calibration predicted %.1f-%.1f/s; %s; highest load per CPU before a cell %.2f",
        low,
        high,
        measured,
        maxLoad);
  }

  /** One line per cell: what the verdict made of it, so a plan failure shows why. */
  private static String cells(VerdictReport v) {
    List<String> lines = new ArrayList<>();
    for (CellAssessment a : v.cells()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "%n  %s %s a/o=%.3f steady=%s busy=%s worker=%s %s",
              a.cell().label(),
              a.use(),
              a.acceptedOverOffered(),
              a.steady(),
              a.busy(),
              a.workerRateUsed(),
              a.problems().stream().map(p -> p.kind() + ": " + p.message()).toList()));
    }
    return String.join("", lines);
  }
}
