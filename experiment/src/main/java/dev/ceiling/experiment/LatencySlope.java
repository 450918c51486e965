package dev.ceiling.experiment;

import dev.ceiling.verdict.CountCheck;
import dev.ceiling.verdict.Estimate;
import dev.ceiling.verdict.LatencyPoint;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.SensitivityFit;
import dev.ceiling.verdict.Tost;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A delay sweep's second slope, beside the ceiling's: the OK latency at the plan's latency offer
 * (well below the ceiling) against the round-trip delay the link really added. Each sequential
 * round trip an event's OK path makes on the link adds the link's round-trip delay d to its OK
 * latency, so the slope, in ms of OK latency per ms of added round-trip delay, counts those round
 * trips, whether or not the link bounds the ceiling. The ceiling's slope is k over the link's
 * concurrency: a pooled or pipelining relay keeps its ceiling while every event still waits k round
 * trips. The ceiling's slope is read here against 0 within the plan's margin: "not what bounds the
 * ceiling".
 *
 * @param offeredPerS the plan's latency offer, events/s
 * @param points one per delay of the plan, in delay order
 * @param fit the line of OK latency (ms) on the delay really added (ms), or null
 * @param fitProblem why there is no line, or null
 * @param countCheck its slope against the declared count (TOST within the plan's margin), or null
 *     when none was declared or there is no line
 * @param wireTurnsPerOkTrue wire turns per OK-true answer over the latency cells used, or null
 * @param bytesToTargetPerOkTrue bytes the relay sent on the link per OK-true answer, over every
 *     latency cell that counts its answers, or null
 * @param bytesToRelayPerOkTrue bytes the link's service sent back per OK-true answer, the same way
 * @param bytesToRelayPerOkTrueFirstHalf the same over the first half of those cells in run order: a
 *     reply that grows with the data (a read over a growing set) shows as the halves apart
 * @param bytesToRelayPerOkTrueSecondHalf the same over the second half
 * @param ceilingAgainstZero the ceiling's slope against 0 within the plan's margin, or null when
 *     the ceiling has no line
 * @param ceilingReading the ceiling's slope in words: not what bounds the ceiling, bounds it,
 *     cannot tell, or no line and why
 * @param established true when the latency line holds and, with a declared count, its slope is
 *     consistent with it
 */
public record LatencySlope(
    double offeredPerS,
    List<Point> points,
    SensitivityFit fit,
    String fitProblem,
    CountCheck countCheck,
    Double wireTurnsPerOkTrue,
    Double bytesToTargetPerOkTrue,
    Double bytesToRelayPerOkTrue,
    Double bytesToRelayPerOkTrueFirstHalf,
    Double bytesToRelayPerOkTrueSecondHalf,
    CountCheck ceilingAgainstZero,
    String ceilingReading,
    boolean established) {

  public LatencySlope {
    points = List.copyOf(Objects.requireNonNull(points, "points must not be null"));
    Objects.requireNonNull(ceilingReading, "ceiling_reading must not be null");
  }

  /**
   * One delay of the latency slope, over its latency cells.
   *
   * @param addedDelayMs the planned round-trip delay, ms
   * @param cellsMeasured latency cells measured at it
   * @param cellsUsed those whose OK latency is a point
   * @param meanMedianOkLatencyMs the mean of the used cells' median OK latencies, ms, or null
   * @param meanOkLatencyMs the mean of their mean OK latencies, ms, or null
   * @param realizedDelayMs the round-trip delay the proxy really added over those cells (planned
   *     plus its mean release lateness once each way), ms; the line's x. Null when none was used
   */
  public record Point(
      double addedDelayMs,
      int cellsMeasured,
      int cellsUsed,
      Double meanMedianOkLatencyMs,
      Double meanOkLatencyMs,
      Double realizedDelayMs) {}

  /**
   * The latency slope of the cells measured so far, and the ceiling's slope read against 0.
   *
   * @param ceilingFit the ceiling's line, or null
   * @param ceilingProblem why the ceiling has no line, or null
   */
  static LatencySlope of(
      DelaySweepPlan plan,
      List<DelaySweepCell> cells,
      SensitivityFit ceilingFit,
      String ceilingProblem) {
    // The holdout's latency cells are the what-if's, never the line's (DelaySweepWhatIf).
    cells = cells.stream().filter(c -> !plan.isHoldout(c.planned())).toList();
    List<LatencyCell> all =
        cells.stream().map(DelaySweepCell::latency).filter(Objects::nonNull).toList();
    List<Point> points = new ArrayList<>();
    List<LatencyPoint> line = line(plan, cells, points);
    SensitivityFit fit = null;
    String problem = null;
    try {
      fit = Sensitivity.latencyFit(line, plan.level(), plan.lackOfFitAlpha());
    } catch (IllegalArgumentException e) {
      problem =
          "no latency line from "
              + line.size()
              + " usable latency cell(s) of "
              + all.size()
              + " measured"
              + whyUnused(all)
              + ": "
              + e.getMessage();
    }
    double alpha = 1 - plan.level();
    CountCheck count =
        fit == null || plan.expectedRoundTrips() == null
            ? null
            : Sensitivity.againstCount(fit, plan.expectedRoundTrips(), plan.margin(), alpha);
    CountCheck zero =
        ceilingFit == null ? null : Sensitivity.againstCount(ceilingFit, 0, plan.margin(), alpha);
    List<LatencyCell> usedCells = all.stream().filter(LatencyCell::used).toList();
    int half = all.size() / 2;
    return new LatencySlope(
        plan.latencyOfferedPerS(),
        points,
        fit,
        problem,
        count,
        perOkTrue(usedCells, Counter.TURNS),
        perOkTrue(all, Counter.TO_TARGET),
        perOkTrue(all, Counter.TO_RELAY),
        half == 0 ? null : perOkTrue(all.subList(0, half), Counter.TO_RELAY),
        half == 0 ? null : perOkTrue(all.subList(half, all.size()), Counter.TO_RELAY),
        zero,
        ceilingReading(plan, ceilingFit, ceilingProblem, zero),
        fit != null
            && fit.established()
            && (count == null || count.reading() == Tost.Reading.CONSISTENT));
  }

  /**
   * The latency line's points over {@code cells}' used latency cells at the plan's grid delays,
   * each at the delay really added; {@code points} (when not null) gets one {@link Point} per
   * delay.
   */
  static List<LatencyPoint> line(
      DelaySweepPlan plan, List<DelaySweepCell> cells, List<Point> points) {
    List<LatencyPoint> line = new ArrayList<>();
    for (double d : plan.delaysMs()) {
      List<DelaySweepCell> at =
          cells.stream()
              .filter(c -> c.latency() != null && c.planned().addedDelayMs() == d)
              .toList();
      List<DelaySweepCell> used = at.stream().filter(c -> c.latency().used()).toList();
      long chunks = used.stream().mapToLong(c -> c.latency().link().releasedChunks()).sum();
      long late = used.stream().mapToLong(c -> c.latency().link().releaseLatenessNanos()).sum();
      // Once each way, as for the ceiling's x (DelaySweepPoint.realizedDelayMs).
      Double x = used.isEmpty() ? null : d + (chunks == 0 ? 0 : 2 * late / 1e6 / chunks);
      for (DelaySweepCell c : used) {
        line.add(new LatencyPoint(x, c.planned().repeat(), c.latency().okLatencyMedianMs()));
      }
      if (points != null) {
        points.add(
            new Point(
                d,
                at.size(),
                used.size(),
                used.isEmpty()
                    ? null
                    : used.stream()
                        .mapToDouble(c -> c.latency().okLatencyMedianMs())
                        .average()
                        .orElseThrow(),
                used.isEmpty()
                    ? null
                    : used.stream()
                        .mapToDouble(c -> c.latency().okLatencyMeanMs())
                        .average()
                        .orElseThrow(),
                x));
      }
    }
    return line;
  }

  private enum Counter {
    TURNS,
    TO_TARGET,
    TO_RELAY
  }

  /** A counter summed over the cells that count their answers, over those answers; or null. */
  private static Double perOkTrue(List<LatencyCell> cells, Counter counter) {
    double answers = 0;
    long sum = 0;
    for (LatencyCell c : cells) {
      if (c.okTrueAnswers() != null) {
        answers += c.okTrueAnswers();
        sum +=
            switch (counter) {
              case TURNS -> c.link().turns();
              case TO_TARGET -> c.link().bytesToTarget();
              case TO_RELAY -> c.link().bytesToClient();
            };
      }
    }
    return answers > 0 ? sum / answers : null;
  }

  private static String whyUnused(List<LatencyCell> cells) {
    java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    cells.stream()
        .filter(c -> !c.used())
        .forEach(c -> counts.merge(c.notUsed().replaceAll(" \\(\\d+\\)$", ""), 1, Integer::sum));
    if (counts.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((r, n) -> parts.add(r + " in " + n));
    return " (not used: " + String.join(", ", parts) + ")";
  }

  /** The ceiling's slope in words, read against 0 within the plan's margin. */
  static String ceilingReading(
      DelaySweepPlan plan, SensitivityFit ceilingFit, String ceilingProblem, CountCheck zero) {
    String upTo = fmt(plan.delaysMs().get(plan.delaysMs().size() - 1));
    if (ceilingFit == null) {
      return "no ceiling slope: " + ceilingProblem;
    }
    Estimate k = ceilingFit.roundTripsPerEvent();
    String kText = String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", k.value(), k.lower(), k.upper());
    return switch (zero.reading()) {
      case CONSISTENT ->
          "the ceiling does not move with its delay up to " + upTo + " ms: not what bounds it";
      case NOT_CONSISTENT ->
          "the ceiling moves with its delay ("
              + kText
              + " round trips per event over the link's concurrency): the link bounds it";
      case INCONCLUSIVE ->
          "the ceiling's slope "
              + kText
              + " cannot tell whether the link bounds it ("
              + zero.message()
              + ")";
    };
  }

  /** The per-link answer: both slopes, the wire count and the declared count's reading. */
  String answer(String link) {
    String wire =
        wireTurnsPerOkTrue == null
            ? "no wire count"
            : String.format(Locale.ROOT, "wire %.2f", wireTurnsPerOkTrue);
    if (fit == null) {
      return "link '" + link + "': " + fitProblem + " (" + wire + "); " + ceilingReading;
    }
    Estimate k = fit.roundTripsPerEvent();
    String kText = String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", k.value(), k.lower(), k.upper());
    String head =
        fit.established()
            ? kText + " sequential round trips on the OK path per event (" + wire + ")"
            : "latency slope " + kText + " (" + wire + ") is not a count: " + fit.message();
    return "link '"
        + link
        + "': "
        + head
        + (countCheck == null || !fit.established() ? "" : "; " + countCheck.message())
        + "; "
        + ceilingReading;
  }

  private static String fmt(double ms) {
    return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
  }
}
