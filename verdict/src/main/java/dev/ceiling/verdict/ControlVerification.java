package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ControlCheckReading;
import dev.ceiling.core.model.DrainTimeout;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MetricRole;
import java.util.List;

/**
 * The control arm verified positive rather than assumed: in a cell of the arm the profile declares
 * without the code path, the relay's own figures for that path must stay flat. Part of {@link
 * CellProblems#of}. Also the drain rule, which like this one is about what the cell started from.
 */
final class ControlVerification {
  private ControlVerification() {}

  /**
   * The control cell's audit figures: the completion counter ({@code audit_log_count}) and the row
   * count ({@code audit_rows}, the gauge's change over the window) must not move, and the profile's
   * control check must print the same before and after. Either figure moving, or the check
   * changing, is fatal. A cell that exposes neither figure and ran no check is marked not verified.
   */
  static void check(Cell c, ExperimentIdentity id, List<CellProblem> out) {
    if (!c.arm().equals(id.controlArm())) {
      return;
    }
    Double completed = c.delta(MetricRole.AUDIT_LOG_COUNT);
    if (completed == null && c.relay().auditCompleted() != null) {
      completed = c.relay().auditCompleted().doubleValue();
    }
    Double rows = c.delta(MetricRole.AUDIT_ROWS);
    boolean moved = (completed != null && completed != 0) || (rows != null && rows != 0);
    if (moved) {
      out.add(
          CellProblems.exclude(
              ProblemKind.CONTROL_AUDIT_MOVED,
              "in the control arm '"
                  + c.arm()
                  + "', which has no audit path, the audit completion counter"
                  + " (audit_log_count) moved by "
                  + figure(completed)
                  + " and the audit row count (audit_rows) by "
                  + figure(rows)
                  + ": audit work happened where the path is off, so the arm is not the control it"
                  + " claims to be"));
    }
    ControlCheckReading check = c.controlCheck();
    if (check != null && check.ran() && !check.unchanged()) {
      out.add(
          CellProblems.exclude(
              ProblemKind.CONTROL_CHECK_CHANGED,
              "the profile's control_check printed \""
                  + check.outputBefore()
                  + "\" (exit "
                  + check.exitBefore()
                  + ") before this cell and \""
                  + check.outputAfter()
                  + "\" (exit "
                  + check.exitAfter()
                  + ") after it: the code path is live in the control arm '"
                  + c.arm()
                  + "'"));
    }
    boolean exposed = completed != null || rows != null;
    boolean checked = check != null && check.ran();
    if (!exposed && !checked) {
      out.add(
          new CellProblem(
              ProblemKind.CONTROL_NOT_VERIFIED,
              "control not verified: the cell shows neither audit_log_count nor audit_rows, and "
                  + (check == null
                      ? "the profile declares no control_check"
                      : "its control_check did not run (" + why(check) + ")")
                  + ", so a live audit path in this arm would go unseen",
              false));
    }
  }

  /** A cell whose drain ran out of time started on the previous cell's backlog. */
  static void drain(Cell c, List<CellProblem> out) {
    DrainTimeout d = c.drainTimeout();
    if (d == null) {
      return;
    }
    out.add(
        CellProblems.exclude(
            ProblemKind.DRAIN_TIMEOUT,
            "the drain before this cell gave up after "
                + Fmt.num(d.timeoutS())
                + " s: audit queue depth "
                + figure(d.queueDepth())
                + " (resting depth "
                + figure(d.baselineQueueDepth())
                + "), "
                + figure(d.outstandingEvents())
                + " events still outstanding; the cell started on the previous cell's backlog,"
                + " so it is not an independent draw"));
  }

  private static String why(ControlCheckReading check) {
    return check.exitBefore() == null ? check.outputBefore() : check.outputAfter();
  }

  private static String figure(Double v) {
    return v == null ? "not exposed" : Fmt.num(v);
  }
}
