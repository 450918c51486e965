package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellCounts;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.CellAssessment;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellUse;
import dev.ceiling.verdict.ClientSteady;
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
 *
 * <p>A cell's ceiling is the worker's completion rate; where the relay maps no worker metric (no
 * audit counter, so no worker rate), it is the cell's client-side ceiling ({@link
 * ClientSteady#ceilingPerS}) and the wire count's denominator is the cell's OK-true answers over
 * the span in which the link was counted ({@link #okTrueAnswers}). Where the worker metric exists
 * nothing of this applies: the same cells, numbers and words as before.
 */
final class DelaySweepAnalysis {
  private DelaySweepAnalysis() {}

  /**
   * One cell as measured, before any rule is applied.
   *
   * @param latency its latency cell, measured before it at the plan's latency offer, or null
   * @param point under a plan's point ramp, the ramp measured at the cell's delay ({@code cell} is
   *     then the step its ceiling was read from), or null
   */
  record Measured(
      DelaySweepPlan.Cell planned,
      Cell cell,
      LinkCounters link,
      Double auditEvents,
      LatencyMeasured latency,
      PointMeasured point) {
    Measured(DelaySweepPlan.Cell planned, Cell cell, LinkCounters link, Double auditEvents) {
      this(planned, cell, link, auditEvents, null, null);
    }

    Measured(
        DelaySweepPlan.Cell planned,
        Cell cell,
        LinkCounters link,
        Double auditEvents,
        LatencyMeasured latency) {
      this(planned, cell, link, auditEvents, latency, null);
    }
  }

  /**
   * A cell's ramp at its delay, as measured.
   *
   * @param ramp the steps under the plan's point-ramp rule, and their ceiling
   * @param okTrueAnswers the OK-true answers to every slot of every step ({@link #okTrueAnswers} of
   *     each, summed), the wire count's denominator over the span the link was counted in; null
   *     when a step's counts cannot show them all
   */
  record PointMeasured(CeilingRamp ramp, Double okTrueAnswers) {}

  /**
   * The index of the step a point ramp's ceiling is read from: the first readable step, up to the
   * one the ramp stopped at, whose OK-true rate is the ramp's ceiling; the last step when the ramp
   * has no ceiling.
   */
  static int ceilingStep(CeilingRamp ramp) {
    List<CeilingRamp.Step> steps = ramp.steps();
    if (ramp.ceilingPerS() != null) {
      for (int i = 0; i < steps.size(); i++) {
        if (ramp.rule().read(steps.get(i)).readable()
            && steps.get(i).answeredPerS() == ramp.ceilingPerS()) {
          return i;
        }
      }
    }
    return steps.size() - 1;
  }

  /** A latency cell as measured: the cell and what crossed the link over it. */
  record LatencyMeasured(Cell cell, LinkCounters link) {}

  /**
   * Where the sweep stands: when it started and ended, whether every cell ran, and the sessions
   * whose cells these are.
   */
  record Progress(
      Instant startedAt,
      Instant finishedAt,
      boolean complete,
      String reason,
      List<DelaySweepSession> sessions) {}

  /**
   * The report of the cells measured so far.
   *
   * @param identity the sweep as the A/B's rules see it: its window and one "repeat" per planned
   *     cell; the cells' own offers become its grid (each offer is checked against the plan's rule
   *     by {@link DelaySweepFile}, not here)
   */
  static DelaySweepReport report(
      String profile,
      RigDescriptor rig,
      ExperimentIdentity identity,
      DelaySweepPlan plan,
      List<Measured> measured,
      Progress progress,
      VerdictConfig cfg) {
    List<DelaySweepCell> cells = withLatency(assess(rig, identity, measured, cfg), measured, cfg);
    List<DelaySweepPoint> points = points(plan, cells);
    Fitted fitted = fit(plan, cells, points);
    SensitivityFit fit = fitted.fit();
    String fitProblem = fitted.problem();
    LatencySlope latency =
        plan.latencyOfferedPerS() == null ? null : LatencySlope.of(plan, cells, fit, fitProblem);
    CountCheck count =
        fit == null || plan.expectedRoundTrips() == null
            ? null
            : Sensitivity.againstCount(
                fit, plan.expectedRoundTrips(), plan.margin(), 1 - plan.level());
    // The holdout is the what-if's: left out of the lines and of the wire count, which are the
    // grid's.
    List<DelaySweepCell> used =
        cells.stream()
            .filter(DelaySweepCell::ceilingUsed)
            .filter(c -> !plan.isHoldout(c.planned()))
            .toList();
    Double wire = turnsPerEvent(used);
    Double wirePerOkTrue = wire == null ? turnsPerOkTrue(used) : null;
    boolean fromClient =
        !cells.isEmpty() && cells.stream().allMatch(DelaySweepCell::ceilingFromClient);
    boolean established =
        latency != null
            ? progress.complete() && latency.established()
            : progress.complete()
                && fit != null
                && fit.established()
                && (count == null || count.reading() == Tost.Reading.CONSISTENT);
    DelaySweepWhatIf whatIf =
        DelaySweepWhatIf.of(
            plan,
            cells,
            fitted.points(),
            plan.latencyOfferedPerS() == null ? null : LatencySlope.line(plan, cells, null));
    String answer =
        latency != null
            ? latency.answer(plan.link()) + partial(progress)
            : fromClient
                ? answerFromClient(plan, fit, fitProblem, count, wirePerOkTrue, progress)
                : answer(plan, fit, fitProblem, count, wire, progress);
    if (whatIf != null) {
      answer += "; " + whatIf.answer();
    }
    return new DelaySweepReport(
        DelaySweepReport.SCHEMA,
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
        answer,
        fromClient ? CeilingSource.CLIENT : null,
        wirePerOkTrue,
        latency,
        whatIf);
  }

  private static String partial(Progress progress) {
    return progress.complete()
        ? ""
        : " (partial: " + (progress.reason() == null ? "still running" : progress.reason()) + ")";
  }

  /** Each cell with its latency cell, judged, where one was measured. */
  private static List<DelaySweepCell> withLatency(
      List<DelaySweepCell> cells, List<Measured> measured, VerdictConfig cfg) {
    List<DelaySweepCell> out = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) {
      LatencyMeasured l = measured.get(i).latency();
      out.add(
          l == null
              ? cells.get(i)
              : cells.get(i).withLatency(LatencyCell.of(l.cell(), l.link(), cfg)));
    }
    return out;
  }

  /** The fit and the points it is fitted to, or why there is none. */
  private record Fitted(SensitivityFit fit, String problem, List<DelayPoint> points) {}

  /**
   * The line over every used cell but the holdout's, each at its point's realized delay: the
   * holdout checks the line, so the line never sees it.
   */
  private static Fitted fit(
      DelaySweepPlan plan, List<DelaySweepCell> cells, List<DelaySweepPoint> points) {
    List<DelayPoint> delayPoints = new ArrayList<>();
    cells = cells.stream().filter(c -> !plan.isHoldout(c.planned())).toList();
    for (DelaySweepCell c : cells) {
      if (c.ceilingUsed()) {
        delayPoints.add(
            new DelayPoint(
                DelaySweepPoint.fitX(points, c.planned().addedDelayMs()),
                c.planned().repeat(),
                c.ceilingPerS()));
      }
    }
    try {
      return new Fitted(
          Sensitivity.fit(delayPoints, plan.level(), plan.lackOfFitAlpha()), null, delayPoints);
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
      return new Fitted(null, problem, delayPoints);
    }
  }

  /**
   * Why the cells the fit could not use were left out, each reason with the number of cells it
   * applies to, so an answer without k names its cause (the limiter, a busy generator, ...): " (not
   * used: ADMISSION_QUOTA in 6, NOTICES in 6)". Empty when every cell was used.
   */
  static String whyUnused(List<DelaySweepCell> cells) {
    Map<String, Integer> counts = new TreeMap<>();
    for (DelaySweepCell c : cells) {
      if (c.ceilingUsed()) {
        continue;
      }
      Set<String> reasons = new TreeSet<>();
      c.problems().stream()
          .filter(CellProblem::excludesEvidence)
          .forEach(p -> reasons.add(p.kind().name()));
      if (reasons.isEmpty() && c.notUsed() != null) {
        reasons.add(c.notUsed());
      } else if (reasons.isEmpty()) {
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
  private static List<DelaySweepCell> assess(
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
    List<DelaySweepCell> out = new ArrayList<>();
    for (int i = 0; i < measured.size(); i++) {
      Measured m = measured.get(i);
      CellAssessment a = assessed.get(i);
      Double turns =
          m.auditEvents() == null || m.auditEvents() <= 0
              ? null
              : m.link().turns() / m.auditEvents();
      if (m.point() != null || noWorkerMetric(rig, m.cell())) {
        out.add(fromClient(m, a, turns, cfg));
        continue;
      }
      out.add(measured(m, a, turns).ceilingUsed(a.workerRateUsed()).build());
    }
    return out;
  }

  /**
   * True when the relay maps no worker metric: no audit counter in its mapping and so no worker
   * rate in the cell. A reference-relay cell whose rate is missing for another reason keeps the
   * worker's rules (and is not used), exactly as before.
   */
  private static boolean noWorkerMetric(RigDescriptor rig, Cell cell) {
    return cell.auditCompletedPerS() == null
        && (rig.metricMapping() == null
            || !rig.metricMapping().containsKey(MetricRole.AUDIT_LOG_COUNT.key()));
  }

  /**
   * A cell of a relay without a worker metric: its ceiling is the client-side one, used when the
   * cell is evidence by the A/B's rules and steady and saturated from the client; otherwise the
   * reason names what failed in the client's terms.
   */
  private static DelaySweepCell fromClient(
      Measured m, CellAssessment a, Double turnsPerEntry, VerdictConfig cfg) {
    if (m.point() != null) {
      return fromPointRamp(m, a, turnsPerEntry);
    }
    Double ceiling = ClientSteady.ceilingPerS(m.cell(), cfg);
    boolean used = a.use() == CellUse.EVIDENCE && ceiling != null;
    String notUsed = null;
    if (!used) {
      ClientSteady.Reading r = ClientSteady.read(m.cell(), cfg);
      if (a.use() != CellUse.EVIDENCE) {
        notUsed = "not evidence by the A/B's rules";
      } else if (r == null) {
        notUsed = "no reading from the client (window counts not recorded)";
      } else if (!r.steady()) {
        notUsed = "not steady from the client";
      } else {
        notUsed = "not saturated from the client";
      }
    }
    Double okTrue = m.auditEvents() == null ? okTrueAnswers(m.cell()) : null;
    Double perOkTrue = okTrue == null || okTrue <= 0 ? null : m.link().turns() / okTrue;
    return measured(m, a, turnsPerEntry)
        .ceilingUsed(used)
        .ceilingFrom(CeilingSource.CLIENT)
        .clientCeilingPerS(ceiling)
        .okTrueAnswers(okTrue)
        .turnsPerOkTrue(perOkTrue)
        .notUsed(notUsed)
        .build();
  }

  /**
   * A cell read by a ramp at its delay: its ceiling is the ramp's (the highest OK-true rate a
   * readable step sustained, never a collapsed step's), used when the step it was read from is
   * evidence by the A/B's rules; a ramp that found none leaves the cell out, in the ramp's words.
   */
  private static DelaySweepCell fromPointRamp(Measured m, CellAssessment a, Double turnsPerEntry) {
    CeilingRamp ramp = m.point().ramp();
    Double ceiling = ramp.ceilingPerS();
    String notUsed = null;
    if (ceiling == null) {
      // The ramp's own words are in the file (point_ramp); the reason is short so that the
      // answer's tally of reasons groups the cells.
      notUsed =
          ramp.rule().stopIndex(ramp.steps(), true) >= 0
              ? "its ramp at this delay collapsed before any step was sustained"
              : "its ramp at this delay reached its maximum without saturating";
    } else if (a.use() != CellUse.EVIDENCE) {
      notUsed =
          "the ramp's step at "
              + fmt(m.cell().offeredPerS())
              + "/s is not evidence by the"
              + " A/B's rules";
    }
    Double okTrue = m.point().okTrueAnswers();
    Double perOkTrue = okTrue == null || okTrue <= 0 ? null : m.link().turns() / okTrue;
    return measured(m, a, turnsPerEntry)
        .ceilingUsed(notUsed == null)
        .ceilingFrom(CeilingSource.CLIENT)
        .clientCeilingPerS(ceiling)
        .okTrueAnswers(okTrue)
        .turnsPerOkTrue(perOkTrue)
        .notUsed(notUsed)
        .pointRamp(ramp)
        .build();
  }

  private static String fmt(double perS) {
    return perS == Math.rint(perS)
        ? Long.toString((long) perS)
        : String.format(Locale.ROOT, "%.1f", perS);
  }

  /** What every cell records, the worker's or the client's: the measurement and its assessment. */
  private static DelaySweepCell.Builder measured(Measured m, CellAssessment a, Double turns) {
    return DelaySweepCell.builder()
        .planned(m.planned())
        .cell(m.cell())
        .use(a.use())
        .steady(a.steady())
        .busy(a.busy())
        .problems(a.problems())
        .link(m.link())
        .auditEvents(m.auditEvents())
        .turnsPerEvent(turns);
  }

  /**
   * The OK-true answers over the span in which the link's turns were counted, or null when the
   * cell's counts cannot show them all.
   *
   * <p>Why this count and not another: on a relay without metrics {@link DelayCells} reads the
   * link's counters just before the cell's one-cell sweep and again right after it returns, i.e.
   * after the generator's grace period (its drain is the generator's own wait for the last OKs;
   * there is no backlog to wait on after it). The turns therefore cover every slot the cell sent,
   * the warm-up's as well as the window's, up to the end of the grace period. {@code accepted} is
   * the window's slots answered OK true by that same end; the warm-up's slots are added as {@code
   * warmupSlotsSent}, which is their OK-true answers when none was refused or left unanswered, and
   * that is what the conditions check: no refusal and no slot unanswered at the end of the grace
   * period among the window's slots (a refused event may make turns of its own; an unanswered one
   * may make its turns after the reading), and no warm-up slot still outstanding when the window
   * closed (the outstanding count at its end is then the window's own slots alone). Not {@code
   * accepted_in_window} or the credited count: they end when the window closes, while the turns go
   * on through the grace period. The warm-up's refusals are not recorded; at the window's offer
   * with no refusal in the window, none is assumed.
   */
  static Double okTrueAnswers(Cell c) {
    CellCounts k = c.counts();
    if (c.warmupSlotsSent() == null
        || !k.hasWindowCounts()
        || c.rejected() != 0
        || c.unacknowledged() != 0
        || k.outstandingAtWindowEnd().longValue() != k.windowSlotsOutstandingAtEnd().longValue()) {
      return null;
    }
    return (double) (c.warmupSlotsSent() + c.accepted());
  }

  /** Turns over OK-true answers, each summed over {@code cells}; null without answers. */
  static Double turnsPerOkTrue(List<DelaySweepCell> cells) {
    double answers = 0;
    long turns = 0;
    for (DelaySweepCell c : cells) {
      if (c.okTrueAnswers() != null) {
        answers += c.okTrueAnswers();
        turns += c.link().turns();
      }
    }
    return answers > 0 ? turns / answers : null;
  }

  private static List<DelaySweepPoint> points(DelaySweepPlan plan, List<DelaySweepCell> cells) {
    List<DelaySweepPoint> out = new ArrayList<>();
    for (double d : plan.delaysMs()) {
      List<DelaySweepCell> at =
          cells.stream().filter(c -> c.planned().addedDelayMs() == d).toList();
      List<DelaySweepCell> used = at.stream().filter(DelaySweepCell::ceilingUsed).toList();
      double[] rates = used.stream().mapToDouble(DelaySweepCell::ceilingPerS).toArray();
      long chunks = used.stream().mapToLong(c -> c.link().releasedChunks()).sum();
      long lateness = used.stream().mapToLong(c -> c.link().releaseLatenessNanos()).sum();
      out.add(
          new DelaySweepPoint(
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
  static Double turnsPerEvent(List<DelaySweepCell> cells) {
    double events = 0;
    long turns = 0;
    for (DelaySweepCell c : cells) {
      if (c.auditEvents() != null) {
        events += c.auditEvents();
        turns += c.link().turns();
      }
    }
    return events > 0 ? turns / events : null;
  }

  /**
   * The answer of a sweep whose ceilings are the client's: as {@link #answer}, with each figure's
   * source in its words ("ceiling from the client", "per OK-true answer").
   */
  static String answerFromClient(
      DelaySweepPlan plan,
      SensitivityFit fit,
      String fitProblem,
      CountCheck count,
      Double wirePerOkTrue,
      Progress progress) {
    String link = "link '" + plan.link() + "'";
    String sources =
        "ceiling from the client; "
            + (wirePerOkTrue == null
                ? "no wire count"
                : String.format(Locale.ROOT, "wire count %.2f per OK-true answer", wirePerOkTrue));
    String partial =
        progress.complete()
            ? ""
            : " (partial: "
                + (progress.reason() == null ? "still running" : progress.reason())
                + ")";
    if (fit == null) {
      return "no round-trip count on " + link + " (" + sources + "): " + fitProblem + partial;
    }
    Estimate k = fit.roundTripsPerEvent();
    String kText = String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", k.value(), k.lower(), k.upper());
    if (!fit.established()) {
      return "k = "
          + kText
          + " on "
          + link
          + " ("
          + sources
          + ") is not a count of round trips: "
          + fit.message()
          + partial;
    }
    return "the OK path makes "
        + kText
        + " sequential round trips per event on "
        + link
        + " ("
        + sources
        + ")"
        + (count == null ? "" : "; " + count.message())
        + partial;
  }

  /** The answer first: k with its interval and the wire count, or why there is none. */
  static String answer(
      DelaySweepPlan plan,
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
