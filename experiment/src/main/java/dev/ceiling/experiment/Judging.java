package dev.ceiling.experiment;

import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.CombineException;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.util.Map;

/**
 * Judging the half-runs the arms left: both combined and judged, or the one there is reported on
 * its own; and the experiment's outcome from all its phases.
 */
final class Judging {
  private Judging() {}

  /**
   * The report, or why there is none.
   *
   * @param report both halves and the verdict, or null when no half exists or they do not combine
   * @param problem why the halves could not be combined, or null
   */
  record Judged(ExperimentReport report, String problem) {}

  /** Judges the treatment's and the control's half (either or both may be missing). */
  static Judged judge(
      Map<String, HalfRun> halves, String treatmentArm, String controlArm, VerdictConfig config) {
    HalfRun treatment = halves.get(treatmentArm);
    HalfRun control = halves.get(controlArm);
    try {
      if (treatment != null && control != null) {
        return new Judged(ExperimentReport.of(Combine.combine(treatment, control), config), null);
      }
      if (treatment != null || control != null) {
        return new Judged(
            ExperimentReport.ofSingleArm(treatment != null ? treatment : control, config), null);
      }
      return new Judged(null, null);
    } catch (CombineException e) {
      return new Judged(null, "the halves cannot be combined: " + e.getMessage());
    }
  }

  /**
   * How the experiment ended. A report that could not be written is an infrastructure failure;
   * halves that do not combine are not established; otherwise the arms' own stop decides, and after
   * arms that all ran, the verdict (no report at all then means nothing could be measured).
   */
  static Outcome outcome(Outcome arms, Judged judged, ReportWriter.Written written) {
    if (written.problem() != null) {
      return Outcome.INFRASTRUCTURE;
    }
    if (judged.problem() != null) {
      return Outcome.NOT_ESTABLISHED;
    }
    if (arms != Outcome.ESTABLISHED) {
      return arms;
    }
    if (judged.report() == null) {
      return Outcome.INFRASTRUCTURE;
    }
    return judged.report().verdict().established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
  }
}
