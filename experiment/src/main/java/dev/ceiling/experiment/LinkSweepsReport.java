package dev.ceiling.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ceiling.verdict.Estimate;
import dev.ceiling.verdict.Tost;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a sweep per link writes to {@code links.json}: the plan of every link, declared before the
 * first cell of the first link, then one row per link swept (round trips per event by the timing
 * fit, next to the wire count), rewritten after each link.
 *
 * @param schema the document's schema name and version
 * @param profile the profile's name
 * @param plan every link's plan
 * @param links one row per link swept so far, in the plan's order
 * @param complete whether every link of the plan was swept
 * @param answer the table in one line per link, or why there is none yet
 */
public record LinkSweepsReport(
    String schema, String profile, Plan plan, List<Row> links, boolean complete, String answer) {

  /** The document's schema name and version. */
  public static final String SCHEMA = "ceiling-links/1";

  public LinkSweepsReport {
    Objects.requireNonNull(plan, "plan must not be null");
    links = List.copyOf(links);
  }

  /**
   * The sweeps, fixed before the first: each link in turn, in its own directory, the others at zero
   * added delay, each on the same grid, repeats, cell duration, rate rule and seed.
   *
   * @param links the upstreams swept, in order
   * @param delaysMs the added round-trip delays of every link's grid, ms
   * @param repeats cells per delay
   * @param durationS each cell's window, s
   * @param ratePerS the one offered rate of every cell, or null for each link's sweep's own rule (a
   *     multiple of the relay's predicted ceiling)
   * @param seed the seed of every link's cell order
   * @param margin the equivalence margin around each declared count, round trips per event
   * @param expectedRoundTrips the count declared for each link that has one
   */
  public record Plan(
      List<String> links,
      List<Double> delaysMs,
      int repeats,
      double durationS,
      Double ratePerS,
      long seed,
      double margin,
      Map<String, Double> expectedRoundTrips) {
    public Plan {
      links = List.copyOf(links);
      delaysMs = List.copyOf(delaysMs);
      expectedRoundTrips = Map.copyOf(expectedRoundTrips);
    }
  }

  /**
   * One link's sweep, as the table shows it.
   *
   * @param link the upstream
   * @param dir its sweep's directory, relative to the one of {@code links.json}
   * @param outcome its sweep's outcome
   * @param roundTripsPerEvent k with its interval, or null when no line was fitted
   * @param lineHolds whether the line holds (k is a count), or null without a fit
   * @param wireTurnsPerEvent the proxy's turns per audit entry over the cells the fit used, or null
   * @param wireTurnsPerEventAllCells the same over every cell measured, used or not: a count of
   *     turns does not depend on the timing rules that exclude a cell; null without entries
   * @param expectedRoundTrips the declared count, or null
   * @param reading the test against the declared count, or null without one (or without a fit)
   * @param answer its sweep's answer in one line
   * @param latencyRoundTrips the latency slope with its interval (round trips on the OK path per
   *     event), or null without one (left out of the JSON)
   * @param latencyLineHolds whether the latency line holds, or null without one
   * @param latencyWireTurnsPerOkTrue wire turns per OK-true answer over the latency cells used, or
   *     null
   * @param bytesToTargetPerOkTrue bytes the relay sent on the link per OK-true answer, or null
   * @param bytesToRelayPerOkTrue bytes the service sent back per OK-true answer, or null
   * @param ceilingReading the ceiling's slope read against 0 in words, or null without a latency
   *     slope
   */
  public record Row(
      String link,
      String dir,
      Outcome outcome,
      Estimate roundTripsPerEvent,
      Boolean lineHolds,
      Double wireTurnsPerEvent,
      Double wireTurnsPerEventAllCells,
      Double expectedRoundTrips,
      Tost.Reading reading,
      String answer,
      @JsonInclude(JsonInclude.Include.NON_NULL) Estimate latencyRoundTrips,
      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean latencyLineHolds,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double latencyWireTurnsPerOkTrue,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double bytesToTargetPerOkTrue,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double bytesToRelayPerOkTrue,
      @JsonInclude(JsonInclude.Include.NON_NULL) String ceilingReading) {

    /** A row without a latency slope. */
    public Row(
        String link,
        String dir,
        Outcome outcome,
        Estimate roundTripsPerEvent,
        Boolean lineHolds,
        Double wireTurnsPerEvent,
        Double wireTurnsPerEventAllCells,
        Double expectedRoundTrips,
        Tost.Reading reading,
        String answer) {
      this(
          link,
          dir,
          outcome,
          roundTripsPerEvent,
          lineHolds,
          wireTurnsPerEvent,
          wireTurnsPerEventAllCells,
          expectedRoundTrips,
          reading,
          answer,
          null,
          null,
          null,
          null,
          null,
          null);
    }

    /** The row of one link's sweep; {@code r.report()} may be null (nothing was measured). */
    static Row of(String link, Double expected, DelaySweepResult r) {
      DelaySweepReport s = r.report();
      if (s == null) {
        return new Row(
            link,
            link,
            r.outcome(),
            null,
            null,
            null,
            null,
            expected,
            null,
            String.join("; ", r.problems()));
      }
      LatencySlope l = s.latencySlope();
      // With a latency slope the declared count is tested on it (DelaySweepAnalysis.report).
      var count = l != null ? l.countCheck() : s.countCheck();
      return new Row(
          link,
          link,
          r.outcome(),
          s.fit() == null ? null : s.fit().roundTripsPerEvent(),
          s.fit() == null ? null : s.fit().established(),
          s.wireTurnsPerEvent(),
          DelaySweepAnalysis.turnsPerEvent(s.cells()),
          expected,
          count == null ? null : count.reading(),
          s.answer(),
          (l == null || l.fit() == null) ? null : l.fit().roundTripsPerEvent(),
          (l == null || l.fit() == null) ? null : l.fit().established(),
          l == null ? null : l.wireTurnsPerOkTrue(),
          l == null ? null : l.bytesToTargetPerOkTrue(),
          l == null ? null : l.bytesToRelayPerOkTrue(),
          l == null ? null : ceilingWord(l));
    }

    /** The ceiling's reading in a word or two, for the table. */
    private static String ceilingWord(LatencySlope l) {
      if (l.ceilingAgainstZero() == null) {
        return "no line";
      }
      return switch (l.ceilingAgainstZero().reading()) {
        case CONSISTENT -> "not bounding";
        case NOT_CONSISTENT -> "bounds it";
        case INCONCLUSIVE -> "cannot tell";
      };
    }

    /**
     * The row with both slopes in one line: link, the latency slope [interval], its wire per
     * OK-true answer, bytes out/back per OK-true answer, the ceiling's slope [interval] and its
     * reading against 0, declared and the reading against it.
     */
    public String slopesLine() {
      return String.format(
          Locale.ROOT,
          "%-12s %-20s %-8s %-14s %-20s %-13s %-10s %s",
          link,
          interval(latencyRoundTrips, latencyLineHolds),
          num(latencyWireTurnsPerOkTrue),
          (bytesToTargetPerOkTrue == null
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.0f", bytesToTargetPerOkTrue))
              + "/"
              + (bytesToRelayPerOkTrue == null
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.0f", bytesToRelayPerOkTrue)),
          interval(roundTripsPerEvent, lineHolds),
          ceilingReading == null ? "n/a" : ceilingReading,
          expectedRoundTrips == null ? "-" : String.format(Locale.ROOT, "%s", expectedRoundTrips),
          reading == null
              ? (outcome == Outcome.ESTABLISHED ? "" : outcome.name())
              : reading.name());
    }

    private static String interval(Estimate k, Boolean holds) {
      return k == null
          ? "n/a"
          : String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", k.value(), k.lower(), k.upper())
              + (Boolean.TRUE.equals(holds) ? "" : " (no line)");
    }

    /** The row in one line: link, k [interval], wire count, declared and reading. */
    public String line() {
      Estimate k = roundTripsPerEvent;
      return String.format(
          Locale.ROOT,
          "%-12s %-20s %-10s %-10s %-10s %s",
          link,
          k == null
              ? "n/a"
              : String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", k.value(), k.lower(), k.upper())
                  + (Boolean.TRUE.equals(lineHolds) ? "" : " (no line)"),
          num(wireTurnsPerEvent),
          num(wireTurnsPerEventAllCells),
          expectedRoundTrips == null ? "-" : String.format(Locale.ROOT, "%s", expectedRoundTrips),
          reading == null
              ? (outcome == Outcome.ESTABLISHED ? "" : outcome.name())
              : reading.name());
    }
  }

  private static String num(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
  }

  /** The table's header, over {@link Row#line()}. */
  public static final String HEADER =
      String.format(
          Locale.ROOT,
          "%-12s %-20s %-10s %-10s %-10s %s",
          "link",
          "k [interval]",
          "wire_used",
          "wire_all",
          "declared",
          "reading");

  /** The header over {@link Row#slopesLine()}: both slopes per link. */
  public static final String SLOPES_HEADER =
      String.format(
          Locale.ROOT,
          "%-12s %-20s %-8s %-14s %-20s %-13s %-10s %s",
          "link",
          "latency k [int.]",
          "wire",
          "bytes out/back",
          "ceiling k [int.]",
          "ceiling",
          "declared",
          "reading");

  /**
   * The table as lines: the header, then each row; both slopes per link when any row has a latency
   * slope.
   */
  public List<String> table() {
    List<String> out = new ArrayList<>();
    if (links.stream().anyMatch(r -> r.ceilingReading() != null)) {
      out.add(SLOPES_HEADER);
      links.forEach(r -> out.add(r.slopesLine()));
      return out;
    }
    out.add(HEADER);
    links.forEach(r -> out.add(r.line()));
    return out;
  }
}
