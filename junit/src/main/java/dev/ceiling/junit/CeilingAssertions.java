package dev.ceiling.junit;

import dev.ceiling.core.model.HalfRun;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.RegressionCheck;
import dev.ceiling.verdict.RegressionResult;
import dev.ceiling.verdict.Tost;
import dev.ceiling.verdict.VerdictConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Assertions over Ceiling's results, in the words a relay developer would use. Each throws {@link
 * AssertionError} (so JUnit, TestNG and plain {@code main} all report it) with a message that says
 * what was required and every reason it did not hold. Stateless and thread-safe.
 */
public final class CeilingAssertions {
  private CeilingAssertions() {}

  /**
   * Asserts that the experiment established that its treatment arm limits ingest: the verdict is
   * established (the control ran, no fatal problem, separation shown at a comparable rate).
   *
   * @param report a finished experiment's report, e.g. {@code ExperimentResult.report()}
   * @throws AssertionError when the report is null or the verdict is not established; the message
   *     lists every {@code NOT ESTABLISHED:} line of the verdict, one per line
   */
  public static void assertLimitsIngest(ExperimentReport report) {
    if (report == null) {
      throw new AssertionError(
          "expected the treatment arm to limit ingest, but there is no report: nothing was"
              + " measured (see the experiment's problems)");
    }
    if (!report.verdict().established()) {
      List<String> lines = report.verdict().failureLines();
      throw new AssertionError(
          "expected arm '"
              + report.identity().treatmentArm()
              + "' of profile "
              + report.identity().profile()
              + " to limit ingest, but the verdict is not established ("
              + lines.size()
              + " reason(s)):\n"
              + String.join("\n", lines));
    }
  }

  /**
   * Asserts that the candidate's audit-worker completion rate is not lower than the baseline's by
   * more than {@code marginPerS}: a one-sided Welch non-inferiority test (H0: candidate - baseline
   * {@code <= -margin}) at the config's family alpha, never a reading of overlapping intervals.
   * Uses each run's treatment half and the candidate's recorded verdict config.
   *
   * @param marginPerS the largest tolerated loss, events/s, finite and >= 0
   * @return the comparison (for logging) when it passes
   * @throws AssertionError when either report lacks a treatment half, or non-inferiority is not
   *     shown (including too few cells: each run needs >= 2 steady, busy cells); the message states
   *     the margin, both means and the lower bound
   * @throws IllegalArgumentException when the margin is negative, infinite or NaN
   */
  public static RegressionResult assertCeilingNotLowered(
      ExperimentReport baseline, ExperimentReport candidate, double marginPerS) {
    Objects.requireNonNull(baseline, "baseline must not be null");
    Objects.requireNonNull(candidate, "candidate must not be null");
    if (baseline.treatment() == null || candidate.treatment() == null) {
      throw new AssertionError(
          "cannot compare ceilings: the "
              + (baseline.treatment() == null ? "baseline" : "candidate")
              + " report has no treatment half");
    }
    return assertCeilingNotLowered(
        baseline.treatment(), candidate.treatment(), marginPerS, candidate.verdict().config());
  }

  /**
   * {@link #assertCeilingNotLowered(ExperimentReport, ExperimentReport, double)} on two half-runs
   * of the arm whose ceiling matters, with {@link VerdictConfig#defaults()}.
   *
   * @param marginPerS the largest tolerated loss, events/s, finite and >= 0
   */
  public static RegressionResult assertCeilingNotLowered(
      HalfRun baseline, HalfRun candidate, double marginPerS) {
    return assertCeilingNotLowered(baseline, candidate, marginPerS, VerdictConfig.defaults());
  }

  /**
   * The worker-rate regression guard with explicit thresholds.
   *
   * @param marginPerS the largest tolerated loss, events/s, finite and >= 0
   * @param cfg alpha (family_alpha), steadiness and busy thresholds
   * @throws AssertionError when non-inferiority is not shown
   * @throws IllegalArgumentException when the margin is negative, infinite or NaN
   */
  public static RegressionResult assertCeilingNotLowered(
      HalfRun baseline, HalfRun candidate, double marginPerS, VerdictConfig cfg) {
    Objects.requireNonNull(baseline, "baseline must not be null");
    Objects.requireNonNull(candidate, "candidate must not be null");
    Objects.requireNonNull(cfg, "cfg must not be null");
    return require(RegressionCheck.workerRate(baseline, candidate, marginPerS, cfg), "events/s");
  }

  /**
   * Asserts that accepted/offered at one offered rate is not lower in the candidate than in the
   * baseline by more than {@code margin} (one-sided Welch non-inferiority test over each run's
   * evidence cells at that rate), with {@link VerdictConfig#defaults()}.
   *
   * @param offeredPerS the grid rate to compare, events/s
   * @param margin the largest tolerated loss in accepted/offered, in [0, 1)
   * @throws AssertionError when non-inferiority is not shown (including fewer than 2 evidence cells
   *     at that rate in either run)
   * @throws IllegalArgumentException when the margin is negative, infinite or NaN
   */
  public static RegressionResult assertAcceptedNotLowered(
      HalfRun baseline, HalfRun candidate, double offeredPerS, double margin) {
    Objects.requireNonNull(baseline, "baseline must not be null");
    Objects.requireNonNull(candidate, "candidate must not be null");
    return require(
        RegressionCheck.acceptedOverOffered(
            baseline, candidate, offeredPerS, margin, VerdictConfig.defaults()),
        "(accepted/offered)");
  }

  /**
   * Asserts that a delay sweep measured the declared count of sequential round trips per event on
   * its link: every planned cell ran, the line 1/C = k d + c holds (its lack-of-fit test ran and
   * did not reject it), and k is CONSISTENT with the count by the sweep's TOST within its margin.
   *
   * <p>The count must be the one in the sweep's plan, declared before the first cell ({@code
   * DelaySweep.builder().expectRoundTrips(k)}): an assertion cannot choose it after the data.
   *
   * @param report a finished sweep's report, e.g. {@code DelaySweepResult.report()}
   * @param declared the count the plan declared
   * @throws AssertionError listing every reason at once, after the sweep's own answer
   */
  public static void assertRoundTripsPerEvent(DelaySweepReport report, double declared) {
    if (report == null) {
      throw new AssertionError(
          "expected "
              + count(declared)
              + " round trips per event, but there is no report: nothing was measured (see the"
              + " sweep's problems)");
    }
    List<String> why = new ArrayList<>();
    Double planned = report.plan().expectedRoundTrips();
    if (planned == null) {
      why.add(
          "the plan declared no count: declare it before the run (expectRoundTrips("
              + count(declared)
              + "))");
    } else if (Double.compare(planned, declared) != 0) {
      why.add(
          "the plan declared "
              + count(planned)
              + ", not "
              + count(declared)
              + ": the count is fixed before the first cell, never chosen after the data");
    }
    if (!report.complete()) {
      why.add("the sweep is incomplete: " + report.incompleteReason());
    }
    if (report.fit() == null) {
      why.add("no fit: " + report.fitProblem());
    } else if (!report.fit().established()) {
      why.add("the line does not hold: " + report.fit().message());
    }
    if (report.countCheck() != null && report.countCheck().reading() != Tost.Reading.CONSISTENT) {
      why.add(report.countCheck().message());
    } else if (report.countCheck() == null && planned != null && report.fit() != null) {
      why.add("k was not tested against the declared count");
    }
    if (!why.isEmpty()) {
      throw new AssertionError(
          "expected "
              + count(declared)
              + " round trips per event on link '"
              + report.plan().link()
              + "', but: "
              + report.answer()
              + "\n"
              + String.join("\n", why));
    }
  }

  private static RegressionResult require(RegressionResult r, String unit) {
    if (!r.nonInferior()) {
      throw new AssertionError(
          "expected "
              + r.metric()
              + " not to drop by more than the margin of "
              + num(r.margin())
              + " "
              + unit
              + " (one-sided non-inferiority test at level "
              + num(r.level())
              + "), but: baseline mean "
              + num(r.baselineMean())
              + " over "
              + r.baselineN()
              + " cell(s), candidate mean "
              + num(r.candidateMean())
              + " over "
              + r.candidateN()
              + " cell(s); "
              + r.message());
    }
    return r;
  }

  /** A count as it was declared: 6, 2.5. */
  private static String count(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  private static String num(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.4g", v);
  }
}
