package dev.ceiling.experiment;

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
      String answer) {

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
      return new Row(
          link,
          link,
          r.outcome(),
          s.fit() == null ? null : s.fit().roundTripsPerEvent(),
          s.fit() == null ? null : s.fit().established(),
          s.wireTurnsPerEvent(),
          DelaySweepAnalysis.turnsPerEvent(s.cells()),
          expected,
          s.countCheck() == null ? null : s.countCheck().reading(),
          s.answer());
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

  /** The table as lines: the header, then each row. */
  public List<String> table() {
    List<String> out = new ArrayList<>();
    out.add(HEADER);
    links.forEach(r -> out.add(r.line()));
    return out;
  }
}
