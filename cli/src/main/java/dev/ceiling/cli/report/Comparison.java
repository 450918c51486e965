package dev.ceiling.cli.report;

import dev.ceiling.verdict.RegressionResult;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The document {@code ceiling compare} writes ({@code --json}) and renders: which runs were
 * compared, the margin, what changed between them, the non-inferiority result, and the answer in
 * words. Formatting only; the statistics are the verdict module's.
 *
 * @param baseline the baseline file as given
 * @param candidate the candidate file as given
 * @param arm the arm compared
 * @param margin the margin as the user wrote it ("5%", "10/s")
 * @param changes what differs in the system measured, one line each; empty when nothing does
 * @param result the non-inferiority test on the worker's completion rate
 * @param answer the answer in words, first line of the console output
 */
public record Comparison(
    String baseline,
    String candidate,
    String arm,
    String margin,
    List<String> changes,
    RegressionResult result,
    String answer) {

  public Comparison {
    Objects.requireNonNull(result, "result must not be null");
    changes = List.copyOf(changes);
  }

  /** The comparison with its answer worded from {@code result}. */
  public static Comparison of(
      String baseline,
      String candidate,
      String arm,
      String margin,
      List<String> changes,
      RegressionResult result) {
    return new Comparison(
        baseline, candidate, arm, margin, changes, result, answer(result, margin));
  }

  /** The answer first, in words, with its figures. */
  static String answer(RegressionResult r, String margin) {
    String within =
        "a margin of " + margin + (margin.endsWith("%") ? " (" + rate(r.margin()) + ")" : "");
    if (r.lowerBound() == null) {
      return "No: could not show non-inferiority with "
          + within
          + ": "
          + r.message().replaceFirst("^not shown non-inferior: ", "")
          + ".";
    }
    String figures =
        ". The candidate's worker rate is "
            + rate(r.candidateMean())
            + " against the baseline's "
            + rate(r.baselineMean())
            + "; the one-sided "
            + pct(r.level())
            + " lower bound on the change, "
            + rate(r.lowerBound())
            + (r.nonInferior() ? ", lies above -" : ", is not above -")
            + rate(r.margin());
    if (r.nonInferior()) {
      return "Yes: no regression beyond " + within + figures + ".";
    }
    return "No: could not show non-inferiority with "
        + within
        + figures
        + (r.difference() < -r.margin()
            ? ", and the estimated change itself, " + rate(r.difference()) + ", lies beyond it."
            : ": the interval is too wide for this margin; more repeats narrow it.");
  }

  /** What changed, in words. */
  public String changesLine() {
    return changes.isEmpty()
        ? "Nothing in the runs' identities changed: the same relay build, relay parameters and"
            + " Ceiling build."
        : "What changed: " + String.join("; ", changes) + ".";
  }

  /** How the answer was reached, in words. */
  public String methodLine() {
    return "Method: one-sided Welch test of H0 candidate - baseline <= -margin on the worker's"
        + " completion rate ('"
        + arm
        + "' arm) over each run's steady, busy evidence cells ("
        + result.baselineN()
        + " baseline, "
        + result.candidateN()
        + " candidate); "
        + result.message()
        + ".";
  }

  private static String rate(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.1f/s", v);
  }

  private static String pct(double level) {
    return String.format(Locale.ROOT, "%.0f%%", level * 100);
  }
}
