package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.CellAssessment;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CountCheck;
import dev.ceiling.verdict.DelayPoint;
import dev.ceiling.verdict.Estimate;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.SensitivityFit;
import dev.ceiling.verdict.Tost;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * From a delay sweep's measured cells to its report: the A/B's cell rules, the points, the fit, the
 * test against the declared count and the answer. Pure: no clock, no I/O.
 */
final class SensitivityAnalysis {
  private SensitivityAnalysis() {}

  /** One cell as measured, before any rule is applied. */
  record Measured(SensitivityPlan.Cell planned, Cell cell, LinkCounters link, Double auditEvents) {}

  /**
   * Where the sweep stands: when it started and ended, whether every cell ran, and the sessions
   * whose cells these are.
   */
  record Progress(
      Instant startedAt,
      Instant finishedAt,
      boolean complete,
      String reason,
      List<SensitivitySession> sessions) {}

  /**
   * The report of the cells measured so far.
   *
   * @param identity the sweep as the A/B's rules see it: its window and one "repeat" per planned
   *     cell; the cells' own offers become its grid (each offer is checked against the plan's rule
   *     by {@link SensitivityFile}, not here)
   */
  static SensitivityReport report(
      String profile,
      RigDescriptor rig,
      ExperimentIdentity identity,
      SensitivityPlan plan,
      List<Measured> measured,
      Progress progress,
      VerdictConfig cfg) {
    List<SensitivityCell> cells = assess(rig, identity, measured, cfg);
    List<SensitivityPoint> points = points(plan, cells);
    Fitted fitted = fit(plan, cells, points);
    SensitivityFit fit = fitted.fit();
    String fitProblem = fitted.problem();
    CountCheck count =
        fit == null || plan.expectedRoundTrips() == null
            ? null
            : Sensitivity.againstCount(
                fit, plan.expectedRoundTrips(), plan.margin(), 1 - plan.level());
    Double wire = turnsPerEvent(cells.stream().filter(SensitivityCell::ceilingUsed).toList());
    boolean established =
        progress.complete()
            && fit != null
            && fit.established()
            && (count == null || count.reading() == Tost.Reading.CONSISTENT);
    String answer = answer(plan, fit, fitProblem, count, wire, progress);
    return new SensitivityReport(
        SensitivityReport.SCHEMA,
        profile,
        rig.arm(),
        rig,
        plan,
        identity.measurement(),
        progress.startedAt(),
        progress.finishedAt(),
        progress.complete(),
        progress.reason(),
        progress.sessions(),
        cells,
        points,
        fit,
        fitProblem,
        count,
        wire,
        established,
        answer);
  }

  /** The fit, or why there is none. */
  private record Fitted(SensitivityFit fit, String problem) {}

  /** The line over every used cell, each at its point's realized delay. */
  private static Fitted fit(
      SensitivityPlan plan, List<SensitivityCell> cells, List<SensitivityPoint> points) {
    List<DelayPoint> delayPoints = new ArrayList<>();
    for (SensitivityCell c : cells) {
      if (c.ceilingUsed()) {
        delayPoints.add(
            new DelayPoint(
                SensitivityPoint.fitX(points, c.planned().addedDelayMs()),
                c.planned().repeat(),
                c.cell().auditCompletedPerS()));
      }
    }
    try {
      return new Fitted(Sensitivity.fit(delayPoints, plan.level(), plan.lackOfFitAlpha()), null);
    } catch (IllegalArgumentException e) {
      String problem =
          "no line to fit from "
              + delayPoints.size()
              + " usable cell(s) of "
              + cells.size()
              + " measured"
              + whyUnused(cells)
              + ": "
              + e.getMessage();
      return new Fitted(null, problem);
    }
  }

  /**
   * Why the cells the fit could not use were left out, each reason with the number of cells it
   * applies to, so an answer without k names its cause (the limiter, a busy generator, ...): " (not
   * used: ADMISSION_QUOTA in 6, NOTICES in 6)". Empty when every cell was used.
   */
  static String whyUnused(List<SensitivityCell> cells) {
    Map<String, Integer> counts = new TreeMap<>();
    for (SensitivityCell c : cells) {
      if (c.ceilingUsed()) {
        continue;
      }
      Set<String> reasons = new TreeSet<>();
      c.problems().stream()
          .filter(CellProblem::excludesEvidence)
          .forEach(p -> reasons.add(p.kind().name()));
      if (reasons.isEmpty()) {
        if (!Boolean.TRUE.equals(c.steady())) {
          reasons.add("not steady");
        }
        if (!Boolean.TRUE.equals(c.busy())) {
          reasons.add("worker not busy");
        }
      }
      reasons.forEach(r -> counts.merge(r, 1, Integer::sum));
    }
    if (counts.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((r, n) -> parts.add(r + " in " + n));
    return " (not used: " + String.join(", ", parts) + ")";
  }

  /**
   * Every rule of the A/B, applied to the cells together (a worker lost in one cell taints the
   * later ones). The verdict sees each cell as a repeat, numbered by its sequence, at its own offer
   * on a grid of the cells' offers.
   */
  private static List<SensitivityCell> assess(
      RigDescriptor rig, ExperimentIdentity identity, List<Measured> measured, VerdictConfig cfg) {
    if (measured.isEmpty()) {
      return List.of();
    }
    List<Cell> asRepeats = new ArrayList<>();
    for (Measured m : measured) {
      asRepeats.add(m.cell().toBuilder().repeat(m.planned().sequence()).build());
    }
    List<Double> offers =
        measured.stream().map(m -> m.cell().offeredPerS()).distinct().sorted().toList();
    HalfRun half =
        new HalfRun(
            SchemaVersion.CURRENT,
            identity.withRates(offers),
            rig.arm(),
            rig,
            measured.get(0).cell().startedAt(),
            measured.get(measured.size() - 1).cell().startedAt(),
            false,
            "being measured",
            asRepeats);
    List<CellAssessment> assessed = Verdict.evaluateSingleArm(half, cfg).cells();
    List<SensitivityCell> out = new ArrayList<>();
    for (int i = 0; i < measured.size(); i++) {
      Measured m = measured.get(i);
      CellAssessment a = assessed.get(i);
      Double turns =
          m.auditEvents() == null || m.auditEvents() <= 0
              ? null
              : m.link().turns() / m.auditEvents();
      out.add(
          new SensitivityCell(
              m.planned(),
              m.cell(),
              a.use(),
              a.steady(),
              a.busy(),
              a.workerRateUsed(),
              a.problems(),
              m.link(),
              m.auditEvents(),
              turns));
    }
    return out;
  }

  private static List<SensitivityPoint> points(SensitivityPlan plan, List<SensitivityCell> cells) {
    List<SensitivityPoint> out = new ArrayList<>();
    for (double d : plan.delaysMs()) {
      List<SensitivityCell> at =
          cells.stream().filter(c -> c.planned().addedDelayMs() == d).toList();
      List<SensitivityCell> used = at.stream().filter(SensitivityCell::ceilingUsed).toList();
      double[] rates = used.stream().mapToDouble(c -> c.cell().auditCompletedPerS()).toArray();
      long chunks = used.stream().mapToLong(c -> c.link().releasedChunks()).sum();
      long lateness = used.stream().mapToLong(c -> c.link().releaseLatenessNanos()).sum();
      out.add(
          new SensitivityPoint(
              d,
              at.size(),
              used.size(),
              rates.length == 0 ? null : java.util.Arrays.stream(rates).average().orElseThrow(),
              rates.length == 0
                  ? null
                  : java.util.Arrays.stream(rates).map(r -> 1000 / r).average().orElseThrow(),
              turnsPerEvent(used),
              chunks == 0 ? null : lateness / 1e6 / chunks,
              used.isEmpty() ? null : d + (chunks == 0 ? 0 : 2 * lateness / 1e6 / chunks)));
    }
    return out;
  }

  /** Turns over entries, each summed over {@code cells}; null without entries. */
  static Double turnsPerEvent(List<SensitivityCell> cells) {
    double events = 0;
    long turns = 0;
    for (SensitivityCell c : cells) {
      if (c.auditEvents() != null) {
        events += c.auditEvents();
        turns += c.link().turns();
      }
    }
    return events > 0 ? turns / events : null;
  }

  /** The answer first: k with its interval and the wire count, or why there is none. */
  static String answer(
      SensitivityPlan plan,
      SensitivityFit fit,
      String fitProblem,
      CountCheck count,
      Double wire,
      Progress progress) {
    String link = "link '" + plan.link() + "'";
    String wireText =
        wire == null ? "no wire count" : String.format(Locale.ROOT, "wire count %.2f", wire);
    String partial =
        progress.complete()
            ? ""
            : " (partial: "
                + (progress.reason() == null ? "still running" : progress.reason())
                + ")";
    if (fit == null) {
      return "no round-trip count on " + link + ": " + fitProblem + partial;
    }
    Estimate k = fit.roundTripsPerEvent();
    String kText = String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", k.value(), k.lower(), k.upper());
    if (!fit.established()) {
      return "k = "
          + kText
          + " on "
          + link
          + " ("
          + wireText
          + ") is not a count of round trips: "
          + fit.message()
          + partial;
    }
    return "the audit path makes "
        + kText
        + " sequential round trips per event on "
        + link
        + " ("
        + wireText
        + ")"
        + (count == null ? "" : "; " + count.message())
        + partial;
  }
}
