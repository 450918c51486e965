package dev.ceiling.verdict;

import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.Objects;

/**
 * A regression guard for the claim "this change did not lower the ceiling": a one-sided
 * non-inferiority test with a stated margin (H0: candidate - baseline &lt;= -margin), never a
 * reading of overlapping intervals, which passes whenever the data is noisy enough. Pure;
 * thread-safe.
 */
public final class RegressionCheck {
  private RegressionCheck() {}

  /**
   * Compares the worker's completion rate, from each run's steady, busy evidence cells (the same
   * cells the verdict's worker-rate estimate uses).
   *
   * @param marginPerS the largest tolerated loss in events/s, &gt;= 0
   * @param cfg thresholds (alpha = family_alpha, steadiness, busy)
   */
  public static RegressionResult workerRate(
      HalfRun baseline, HalfRun candidate, double marginPerS, VerdictConfig cfg) {
    return nonInferior(
        "worker_rate_per_s",
        workerValues(baseline, cfg),
        workerValues(candidate, cfg),
        marginPerS,
        cfg.familyAlpha());
  }

  /**
   * Compares accepted/offered at one rate, from each run's evidence cells there.
   *
   * @param margin the largest tolerated loss in accepted/offered, in [0, 1)
   */
  public static RegressionResult acceptedOverOffered(
      HalfRun baseline, HalfRun candidate, double offeredPerS, double margin, VerdictConfig cfg) {
    return nonInferior(
        "accepted_over_offered@" + Fmt.num(offeredPerS) + "/s",
        evidenceAt(baseline, offeredPerS, cfg),
        evidenceAt(candidate, offeredPerS, cfg),
        margin,
        cfg.familyAlpha());
  }

  /**
   * The test on raw values (higher is better).
   *
   * @param margin &gt;= 0, in the values' unit
   * @param alpha in (0, 0.5]
   */
  public static RegressionResult nonInferior(
      String metric, double[] baseline, double[] candidate, double margin, double alpha) {
    Objects.requireNonNull(metric, "metric");
    if (!(margin >= 0) || Double.isInfinite(margin)) {
      throw new IllegalArgumentException("margin must be a finite number >= 0, got " + margin);
    }
    if (!(alpha > 0 && alpha <= 0.5)) {
      throw new IllegalArgumentException("alpha must be in (0, 0.5], got " + alpha);
    }
    double level = 1 - alpha;
    Double bm = baseline.length == 0 ? null : Sample.of(baseline).mean();
    Double cm = candidate.length == 0 ? null : Sample.of(candidate).mean();
    Double diff = bm == null || cm == null ? null : cm - bm;
    if (baseline.length < 2 || candidate.length < 2) {
      return new RegressionResult(
          metric,
          baseline.length,
          bm,
          candidate.length,
          cm,
          margin,
          diff,
          null,
          level,
          null,
          null,
          false,
          "not shown non-inferior: needs 2 cells per run, has "
              + baseline.length
              + " baseline and "
              + candidate.length
              + " candidate");
    }
    Sample b = Sample.of(baseline);
    Sample c = Sample.of(candidate);
    if (!(Welch.standardError(c, b) > 0)) {
      return new RegressionResult(
          metric,
          b.n(),
          bm,
          c.n(),
          cm,
          margin,
          diff,
          null,
          level,
          null,
          null,
          false,
          "not shown non-inferior: both runs' values are exactly constant, so there is no"
              + " estimate of sampling error");
    }
    Welch.Result r = Welch.test(c, b, -margin);
    double lower = r.difference() - Welch.tUpper(r.df(), alpha) * r.standardError();
    boolean ok = r.pGreater() <= alpha;
    String msg =
        (ok ? "non-inferior" : "not shown non-inferior")
            + ": candidate - baseline = "
            + Fmt.stat(r.difference())
            + ", one-sided "
            + Fmt.num(level)
            + " lower bound "
            + Fmt.stat(lower)
            + (ok ? " > " : " <= ")
            + "-margin "
            + Fmt.stat(-margin)
            + " (p = "
            + Fmt.p(r.pGreater())
            + ")";
    return new RegressionResult(
        metric, b.n(), bm, c.n(), cm, margin, diff, lower, level, r.df(), r.pGreater(), ok, msg);
  }

  private static double[] workerValues(HalfRun half, VerdictConfig cfg) {
    VerdictReport v = Verdict.evaluateSingleArm(half, cfg);
    return v.workerRate() == null
        ? new double[0]
        : half.cells().stream()
            .filter(c -> v.workerRate().cellsUsed().contains(CellRef.of(c)))
            .mapToDouble(c -> c.auditCompletedPerS())
            .toArray();
  }

  private static double[] evidenceAt(HalfRun half, double rate, VerdictConfig cfg) {
    VerdictReport v = Verdict.evaluateSingleArm(half, cfg);
    return v.cells().stream()
        .filter(
            a -> a.use() == CellUse.EVIDENCE && CellProblems.close(a.cell().offeredPerS(), rate))
        .mapToDouble(CellAssessment::acceptedOverOffered)
        .toArray();
  }
}
