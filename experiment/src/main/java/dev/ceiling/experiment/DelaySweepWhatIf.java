package dev.ceiling.experiment;

import dev.ceiling.verdict.DelayPoint;
import dev.ceiling.verdict.LatencyPoint;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.WhatIf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A delay sweep's checked what-if ({@code --at LINK=MS}): what the ceiling's line and the latency's
 * line predict at the delay the link has in production, each with its prediction interval, and
 * whether the holdout (cells measured at that delay, shuffled with the grid's and left out of both
 * lines) fell inside. A prediction nobody checked is a guess: OUTSIDE says the line does not hold
 * out to that delay (a CPU plateau, a pool that saturates) and its figure must not be used. Also
 * the other direction, within the swept range only: the ceiling the line gives at the smallest
 * swept delay against the one at the what-if's delay, what a faster link would raise it to.
 *
 * <p>The check is made where the holdout really was: its planned delay plus the link's mean
 * lateness once each way over its used cells, as every point of the lines is placed ({@link
 * DelaySweepPoint#fitX}). Without a used holdout cell (none measured yet, or none usable) the
 * prediction is made at the declared delay and is offered only inside the swept delays.
 *
 * @param link the swept link
 * @param atDelayMs the declared delay, ms (the plan's {@link DelaySweepPlan#holdoutDelayMs})
 * @param holdoutCellsMeasured holdout cells measured so far
 * @param holdoutCellsUsed those whose ceiling is usable by the A/B's rules (as a point of the line
 *     would be)
 * @param realizedDelayMs the delay the link really added over the used holdout cells, ms, where the
 *     ceiling's check is made; null when none was used
 * @param ceiling the ceiling's line there, or null when it cannot say ({@code ceilingProblem})
 * @param ceilingProblem why the ceiling's line predicts nothing there, or null
 * @param latency the latency line's what-if, or null (no latency slope in the plan, or {@code
 *     latencyProblem})
 * @param latencyProblem why the latency line predicts nothing there, or null
 * @param fasterLink the ceiling's line at the smallest swept delay (its confidence interval: no
 *     extrapolation), stated only when the what-if's delay lies inside the swept delays; null
 *     otherwise
 * @param answer all of it in words, one sentence per line
 */
public record DelaySweepWhatIf(
    String link,
    double atDelayMs,
    int holdoutCellsMeasured,
    int holdoutCellsUsed,
    Double realizedDelayMs,
    WhatIf ceiling,
    String ceilingProblem,
    WhatIf latency,
    String latencyProblem,
    WhatIf fasterLink,
    String answer) {

  public DelaySweepWhatIf {
    Objects.requireNonNull(link, "link must not be null");
    Objects.requireNonNull(answer, "answer must not be null");
    if ((ceiling == null) == (ceilingProblem == null)) {
      throw new IllegalArgumentException(
          "exactly one of ceiling and ceiling_problem must be given");
    }
  }

  /**
   * The what-if of {@code plan}'s holdout over the cells measured so far, or null when the plan has
   * no holdout.
   *
   * @param fitted the points the ceiling's line is fitted to (as the report's fit)
   * @param latencyFitted the points the latency line is fitted to, or null without a latency slope
   */
  static DelaySweepWhatIf of(
      DelaySweepPlan plan,
      List<DelaySweepCell> cells,
      List<DelayPoint> fitted,
      List<LatencyPoint> latencyFitted) {
    if (plan.holdoutDelayMs() == null) {
      return null;
    }
    double at = plan.holdoutDelayMs();
    List<DelaySweepCell> holdout = cells.stream().filter(c -> plan.isHoldout(c.planned())).toList();
    List<DelaySweepCell> used = holdout.stream().filter(DelaySweepCell::ceilingUsed).toList();
    Double realized = used.isEmpty() ? null : DelaySweepPoint.realizedMs(at, linkOf(used));
    double x = realized == null ? at : realized;
    List<DelayPoint> held = new ArrayList<>();
    for (DelaySweepCell c : used) {
      held.add(new DelayPoint(x, c.planned().repeat(), c.ceilingPerS()));
    }
    WhatIf ceiling = null;
    String ceilingProblem = null;
    try {
      ceiling = Sensitivity.whatIf(fitted, x, held, plan.level());
    } catch (IllegalArgumentException e) {
      ceilingProblem = e.getMessage();
    }
    WhatIf latency = null;
    String latencyProblem = null;
    if (latencyFitted != null) {
      List<DelaySweepCell> latencyUsed =
          holdout.stream().filter(c -> c.latency() != null && c.latency().used()).toList();
      Double lx =
          latencyUsed.isEmpty()
              ? null
              : DelaySweepPoint.realizedMs(
                  at, latencyUsed.stream().map(c -> c.latency().link()).toList());
      double lat = lx == null ? at : lx;
      List<LatencyPoint> lheld = new ArrayList<>();
      for (DelaySweepCell c : latencyUsed) {
        lheld.add(new LatencyPoint(lat, c.planned().repeat(), c.latency().okLatencyMedianMs()));
      }
      try {
        latency = Sensitivity.latencyWhatIf(latencyFitted, lat, lheld, plan.level());
      } catch (IllegalArgumentException e) {
        latencyProblem = e.getMessage();
      }
    }
    WhatIf faster = fasterLink(plan, fitted, ceiling);
    return new DelaySweepWhatIf(
        plan.link(),
        at,
        holdout.size(),
        used.size(),
        realized,
        ceiling,
        ceilingProblem,
        latency,
        latencyProblem,
        faster,
        words(
            plan,
            holdout.size(),
            used.size(),
            ceiling,
            ceilingProblem,
            latency,
            latencyProblem,
            faster));
  }

  /**
   * The ceiling's line at the smallest swept delay, where the what-if's delay lies inside the swept
   * delays (no extrapolation either way); null otherwise, or without a line.
   */
  private static WhatIf fasterLink(DelaySweepPlan plan, List<DelayPoint> fitted, WhatIf at) {
    if (at == null || fitted.isEmpty()) {
      return null;
    }
    double min = fitted.stream().mapToDouble(DelayPoint::addedDelayMs).min().orElseThrow();
    double max = fitted.stream().mapToDouble(DelayPoint::addedDelayMs).max().orElseThrow();
    if (at.atDelayMs() < min || at.atDelayMs() > max || !(at.atDelayMs() > min)) {
      return null;
    }
    try {
      return Sensitivity.whatIf(fitted, min, List.of(), plan.level());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static List<dev.ceiling.rig.proxy.LinkCounters> linkOf(List<DelaySweepCell> cells) {
    return cells.stream().map(DelaySweepCell::link).toList();
  }

  private static String words(
      DelaySweepPlan plan,
      int measured,
      int used,
      WhatIf ceiling,
      String ceilingProblem,
      WhatIf latency,
      String latencyProblem,
      WhatIf faster) {
    String head =
        "what-if at "
            + asGiven(plan.holdoutDelayMs())
            + " ms to '"
            + plan.link()
            + "' ("
            + used
            + " of "
            + measured
            + " holdout cell(s) usable, left out of the lines): ";
    List<String> parts = new ArrayList<>();
    parts.add(ceiling != null ? ceiling.message() : "no ceiling predicted: " + ceilingProblem);
    if (latency != null) {
      parts.add(latency.message());
    } else if (latencyProblem != null) {
      parts.add("no OK latency predicted: " + latencyProblem);
    }
    if (faster != null) {
      parts.add(
          String.format(
              Locale.ROOT,
              "a faster link, down to %s ms, would raise the ceiling from %.0f/s to %.0f/s"
                  + " [%.0f, %s] (%+.0f%%), within the swept delays",
              realizedMs(faster.atDelayMs()),
              ceiling.predicted(),
              faster.predicted(),
              faster.lower(),
              faster.upper() == null
                  ? "unbounded"
                  : String.format(Locale.ROOT, "%.0f", faster.upper()),
              100 * (faster.predicted() / ceiling.predicted() - 1)));
    } else if (ceiling != null) {
      parts.add("what a faster link would give is stated only inside the swept delays");
    }
    return head + String.join("; ", parts);
  }

  /** The declared delay as the user gave it ({@code --at db=1.5ms} reads "1.5"), ms. */
  static String asGiven(double ms) {
    String s = java.math.BigDecimal.valueOf(ms).stripTrailingZeros().toPlainString();
    return "-0".equals(s) ? "0" : s;
  }

  /**
   * A delay the link really added (the planned one plus the proxy's lateness, e.g. 1.3315268 ms),
   * ms, to 2 decimals with trailing zeros dropped: its full precision is noise to a reader.
   */
  static String realizedMs(double ms) {
    return asGiven(
        java.math.BigDecimal.valueOf(ms).setScale(2, java.math.RoundingMode.HALF_UP).doubleValue());
  }
}
