package dev.ceiling.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ceiling.core.model.Checks;
import dev.ceiling.rig.proxy.DelayProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A delay sweep's plan, fixed before its first cell and written first to {@code sensitivity.json}:
 * the link, the delay grid, the repeats, the offer and its rule, the seed of the cell order, the
 * model's test levels and the declared count with its margin. Nothing in it depends on a measured
 * cell, so a grid cannot be chosen after seeing the first points. A per-point offer does depend on
 * the cells measured before each one, but only through the rule declared here ({@link
 * PointOffers}), which a reader of the file applies again to check every cell's offer.
 *
 * @param link the upstream whose delay proxy is swept
 * @param delaysMs the added round-trip delays, ms, each finite and &gt;= 0, strictly ascending, at
 *     least 2
 * @param repeats cells per delay, &gt;= 1
 * @param offeredPerS the first offer, events/s, &gt; 0: every cell's without a per-point rule, and
 *     the most any cell is offered with one (the ceiling only falls as the delay grows, so a rate
 *     that saturates the smallest delay saturates every delay)
 * @param offerRule where the offers come from, in words
 * @param perPointOffer the per-point rule, or null when every cell is offered {@code offeredPerS}
 * @param durationS each cell's measurement window, s, &gt; 0
 * @param seed the seed of the cell order
 * @param level the fit's two-sided interval level, in (0, 1)
 * @param lackOfFitAlpha the lack-of-fit test's level, in (0, 0.5]
 * @param expectedRoundTrips the declared count of round trips per event, or null when none
 * @param margin the equivalence margin around the declared count, round trips per event, &gt; 0
 * @param cells every cell in the order it runs
 * @param latencyOfferedPerS the latency offer, events/s, &gt; 0: before each planned cell a cell at
 *     this offer, well below the ceiling, measures the OK latency at the cell's delay for the
 *     latency slope ({@link LatencySlope}); null (left out of the JSON) for no latency slope, as in
 *     every file written before it existed
 * @param ceilingRamp where the relay predicted no ceiling, the ramp that measured the one the first
 *     offer rests on (its rule, steps and ceiling), run before the first cell; null (left out of
 *     the JSON) where the relay predicted its ceiling or a rate was given, as in every file written
 *     before this field
 * @param holdoutDelayMs the what-if's delay ({@code --at LINK=MS}), ms: {@code repeats} cells at
 *     it, shuffled with the grid's, measured like any cell and left out of every line (the
 *     holdout), so the lines' prediction there is checked by a measurement they never saw; off the
 *     grid, finite, in [0, {@link #MAX_DELAY_MS}]. Null (left out of the JSON) for no what-if, as
 *     in every file written before this field
 * @param pointRamp where each cell's ceiling is read by a ramp at the cell's delay instead of one
 *     saturating offer (a relay without a worker metric, whose answered rate may collapse under an
 *     offer above its ceiling), that ramp's rule and the pause after it; null (left out of the
 *     JSON) for one offer per cell, as in every file written before this field
 */
public record DelaySweepPlan(
    String link,
    List<Double> delaysMs,
    int repeats,
    double offeredPerS,
    String offerRule,
    PerPointOffer perPointOffer,
    double durationS,
    long seed,
    double level,
    double lackOfFitAlpha,
    Double expectedRoundTrips,
    double margin,
    List<Cell> cells,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double latencyOfferedPerS,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingRamp ceilingRamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double holdoutDelayMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) PointRamp pointRamp) {

  /**
   * A plan's fields by name; {@code latencyOfferedPerS} and {@code ceilingRamp} default to null
   * (none), the cells to {@link #shuffledCells} of the grid, repeats and seed.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder primed with this plan's fields. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.link = link;
    b.delaysMs = delaysMs;
    b.repeats = repeats;
    b.offeredPerS = offeredPerS;
    b.offerRule = offerRule;
    b.perPointOffer = perPointOffer;
    b.durationS = durationS;
    b.seed = seed;
    b.level = level;
    b.lackOfFitAlpha = lackOfFitAlpha;
    b.expectedRoundTrips = expectedRoundTrips;
    b.margin = margin;
    b.cells = cells;
    b.latencyOfferedPerS = latencyOfferedPerS;
    b.ceilingRamp = ceilingRamp;
    b.holdoutDelayMs = holdoutDelayMs;
    b.pointRamp = pointRamp;
    return b;
  }

  /** This plan with a latency slope at {@code perS} (null: none). */
  public DelaySweepPlan withLatencyOffer(Double perS) {
    return toBuilder().latencyOfferedPerS(perS).build();
  }

  /** Fluent, by name; {@link #build()} checks every field (the plan's constructor). */
  public static final class Builder {
    private String link;
    private List<Double> delaysMs;
    private int repeats;
    private double offeredPerS;
    private String offerRule;
    private PerPointOffer perPointOffer;
    private double durationS;
    private long seed;
    private double level;
    private double lackOfFitAlpha;
    private Double expectedRoundTrips;
    private double margin;
    private List<Cell> cells;
    private Double latencyOfferedPerS;
    private CeilingRamp ceilingRamp;
    private Double holdoutDelayMs;
    private PointRamp pointRamp;

    private Builder() {}

    public Builder link(String name) {
      this.link = name;
      return this;
    }

    public Builder delaysMs(List<Double> ms) {
      this.delaysMs = ms;
      return this;
    }

    public Builder repeats(int n) {
      this.repeats = n;
      return this;
    }

    public Builder offeredPerS(double perS) {
      this.offeredPerS = perS;
      return this;
    }

    public Builder offerRule(String words) {
      this.offerRule = words;
      return this;
    }

    public Builder perPointOffer(PerPointOffer rule) {
      this.perPointOffer = rule;
      return this;
    }

    public Builder durationS(double s) {
      this.durationS = s;
      return this;
    }

    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    public Builder level(double value) {
      this.level = value;
      return this;
    }

    public Builder lackOfFitAlpha(double value) {
      this.lackOfFitAlpha = value;
      return this;
    }

    public Builder expectedRoundTrips(Double count) {
      this.expectedRoundTrips = count;
      return this;
    }

    public Builder margin(double value) {
      this.margin = value;
      return this;
    }

    /** The cells in run order (default: {@link #shuffledCells} of the grid, repeats and seed). */
    public Builder cells(List<Cell> inOrder) {
      this.cells = inOrder;
      return this;
    }

    public Builder latencyOfferedPerS(Double perS) {
      this.latencyOfferedPerS = perS;
      return this;
    }

    public Builder ceilingRamp(CeilingRamp ramp) {
      this.ceilingRamp = ramp;
      return this;
    }

    /** The holdout's delay, ms, or null (the default) for no what-if. */
    public Builder holdoutDelayMs(Double ms) {
      this.holdoutDelayMs = ms;
      return this;
    }

    public Builder pointRamp(PointRamp rule) {
      this.pointRamp = rule;
      return this;
    }

    /**
     * The plan.
     *
     * @throws IllegalArgumentException naming every field that breaks its rule
     */
    public DelaySweepPlan build() {
      return new DelaySweepPlan(
          link,
          delaysMs,
          repeats,
          offeredPerS,
          offerRule,
          perPointOffer,
          durationS,
          seed,
          level,
          lackOfFitAlpha,
          expectedRoundTrips,
          margin,
          cells != null ? cells : shuffledCells(delaysMs, holdoutDelayMs, repeats, seed),
          latencyOfferedPerS,
          ceilingRamp,
          holdoutDelayMs,
          pointRamp);
    }
  }

  /**
   * One planned cell.
   *
   * @param sequence its place in the run, from 0
   * @param addedDelayMs the delay the proxy adds during it, ms
   * @param repeat its repeat at this delay, from 0
   */
  public record Cell(int sequence, double addedDelayMs, int repeat) {}

  /**
   * The per-point offer: a cell is offered the larger of {@code multiple} times the ceiling
   * predicted at its delay and that ceiling plus {@code fillPerS}, at most the first offer. The
   * prediction is the line through the cells used before it ({@link PointOffers}). Lower offers at
   * long delays keep the generator's load and the relay's rejected traffic in proportion to the
   * point; the fill keeps the queue full within the warm-up.
   *
   * @param multiple &gt; 1: an offer at the predicted ceiling would not saturate a point whose
   *     ceiling was underestimated
   * @param fillPerS events/s above the predicted ceiling that fill the relay's queue within half
   *     the warm-up (twice its capacity over the warm-up: a ceiling underestimated leaves less to
   *     fill it), &gt;= 0; 0 when the relay reports no queue
   */
  public record PerPointOffer(double multiple, double fillPerS) {
    public PerPointOffer {
      Checks checks = new Checks().nonNegativeFinite("per_point_offer.fill_per_s", fillPerS);
      checks.require(
          multiple > 1 && Double.isFinite(multiple),
          "per_point_offer.multiple must be finite and > 1, got " + multiple);
      checks.orThrow();
    }
  }

  /**
   * How a cell's ceiling is read on a relay whose answered rate may fall, not plateau, under an
   * offer above its ceiling (nostream answered 5 to 213 OK-true events/s of a fixed 600/s, 1.5 x
   * the 400/s its ramp sustained): at the cell's delay, a ramp by {@code rule} ({@link
   * CeilingRamp}'s reading: rising offers until a step saturates or collapses), whose ceiling, the
   * highest OK-true rate a readable step sustained, is the cell's. A collapsed step is never read
   * as a ceiling: it ends the ramp, and a ramp that sustained no step, or reached its maximum
   * without stopping, leaves the cell out of the fit with the ramp's words. A saturating offer
   * cannot be chosen for such a relay in advance: below its ceiling it does not saturate, and above
   * it the relay collapses, by an amount that depends on how far above.
   *
   * @param rule the ramp at each cell's delay; its window is the plan's cell window
   * @param settleS the pause after each cell's ramp before the next cell, s, &gt;= 0: a relay
   *     without metrics gives no backlog to drain, and the ramp's last step left one (it saturated
   *     or collapsed)
   */
  public record PointRamp(CeilingRamp.Rule rule, double settleS) {
    public PointRamp {
      Objects.requireNonNull(rule, "point_ramp.rule must not be null");
      new Checks().nonNegativeFinite("point_ramp.settle_s", settleS).orThrow();
    }

    /** The rule in words, for the plan's offer rule and the console. */
    public String text() {
      return String.format(
          java.util.Locale.ROOT,
          "each cell a ramp at its delay (%s), then a pause of %s s; the cell's ceiling is that"
              + " ramp's, and a cell whose ramp found none is not a point",
          rule.text(),
          settleS);
    }
  }

  public DelaySweepPlan {
    Checks checks = new Checks();
    checks.notBlank("link", link);
    delaysMs = List.copyOf(Objects.requireNonNull(delaysMs, "delays_ms must not be null"));
    problemsOfGrid(delaysMs).forEach(checks::add);
    if (repeats < 1) {
      checks.add("repeats must be >= 1, got " + repeats);
    }
    checks.positiveFinite("offered_per_s", offeredPerS);
    checks.notBlank("offer_rule", offerRule);
    checks.positiveFinite("duration_s", durationS);
    checks.require(level > 0 && level < 1, "level must be in (0, 1), got " + level);
    checks.require(
        lackOfFitAlpha > 0 && lackOfFitAlpha <= 0.5,
        "lack_of_fit_alpha must be in (0, 0.5], got " + lackOfFitAlpha);
    if (expectedRoundTrips != null) {
      checks.nonNegativeFinite("expected_round_trips", expectedRoundTrips);
    }
    checks.positiveFinite("margin", margin);
    cells = List.copyOf(Objects.requireNonNull(cells, "cells must not be null"));
    if (latencyOfferedPerS != null) {
      checks.positiveFinite("latency_offered_per_s", latencyOfferedPerS);
      checks.require(
          !(latencyOfferedPerS >= offeredPerS),
          "latency_offered_per_s must be below the first offer "
              + offeredPerS
              + " (the latency slope is read well below the ceiling), got "
              + latencyOfferedPerS);
    }
    if (holdoutDelayMs != null) {
      problemsOfHoldout(delaysMs, holdoutDelayMs).forEach(checks::add);
    }
    checks.require(
        ceilingRamp == null || ceilingRamp.ceilingPerS() != null,
        "ceiling_ramp found no ceiling, so no offer can rest on it");
    if (pointRamp != null) {
      checks.require(
          pointRamp.rule().windowS() == durationS,
          "point_ramp.rule.window_s must be the plan's duration_s "
              + durationS
              + ", got "
              + pointRamp.rule().windowS());
      checks.require(
          pointRamp.rule().maxPerS() == offeredPerS,
          "point_ramp.rule.max_per_s must be the plan's offered_per_s "
              + offeredPerS
              + " (the most any cell is offered), got "
              + pointRamp.rule().maxPerS());
      checks.require(
          perPointOffer == null,
          "point_ramp and per_point_offer exclude each other: a cell is a ramp or one offer");
    }
    checks.orThrow();
  }

  /**
   * The cells of a plan: every delay x repeat, in an order shuffled with {@code seed}, so the delay
   * is not confounded with time in the run (warming, a neighbour's load). Empty for a grid with
   * problems (the plan's constructor names them) or fewer than one repeat.
   *
   * <p>The whole plan is shuffled ({@link CellOrder.Shuffle#WHOLE_PLAN}), not each repeat: the line
   * through every cell is the estimate, so the delays want to be spread over the run's time at
   * random as a whole; a sweep stopped early resumes rather than being read by repeat.
   */
  public static List<Cell> shuffledCells(List<Double> delaysMs, int repeats, long seed) {
    return shuffledCells(delaysMs, null, repeats, seed);
  }

  /**
   * The cells of a plan with a holdout at {@code holdoutDelayMs} (null: none): the holdout's delay
   * is one more level among the grid's, in delay order, shuffled with them by the same rule, so the
   * holdout is spread over the run's time like every point of the line. Without a holdout, exactly
   * {@link #shuffledCells(List, int, long)}'s order, as before. Empty for a grid or holdout with
   * problems.
   */
  public static List<Cell> shuffledCells(
      List<Double> delaysMs, Double holdoutDelayMs, int repeats, long seed) {
    List<Cell> order = new ArrayList<>();
    if (delaysMs == null
        || !problemsOfGrid(delaysMs).isEmpty()
        || (holdoutDelayMs != null && !problemsOfHoldout(delaysMs, holdoutDelayMs).isEmpty())) {
      return order;
    }
    List<Double> levels = new ArrayList<>(delaysMs);
    if (holdoutDelayMs != null) {
      levels.add(holdoutDelayMs);
      levels.sort(Double::compare);
    }
    for (CellOrder.Slot<Double> s :
        CellOrder.of(levels, repeats, CellOrder.Shuffle.WHOLE_PLAN, seed)) {
      order.add(new Cell(order.size(), s.level(), s.repeat()));
    }
    return order;
  }

  /**
   * What is wrong with a delay grid, all at once: fewer than 2 delays, a negative or non-finite
   * one, one above the proxy's limit, or delays not strictly ascending (a duplicate included).
   */
  public static List<String> problemsOfGrid(List<Double> delaysMs) {
    List<String> out = new ArrayList<>();
    if (delaysMs.size() < 2) {
      out.add("delays must name at least 2 delays for a line, got " + delaysMs);
      return out;
    }
    for (int i = 0; i < delaysMs.size(); i++) {
      Double d = delaysMs.get(i);
      if (d == null || !Double.isFinite(d) || d < 0 || d > MAX_DELAY_MS) {
        out.add("delays must each be in [0, " + (int) MAX_DELAY_MS + "] ms, got " + d);
      } else if (i > 0 && delaysMs.get(i - 1) != null && !(d > delaysMs.get(i - 1))) {
        out.add("delays must be strictly ascending without duplicates, got " + delaysMs);
      }
    }
    return out;
  }

  /**
   * What is wrong with a holdout's delay against its grid: not finite, negative, above the proxy's
   * limit, or one of the grid's delays (cells there would be the line's own repeats, and a cell's
   * delay would no longer say whether it is a point of the line or the holdout).
   */
  public static List<String> problemsOfHoldout(List<Double> delaysMs, Double holdoutDelayMs) {
    List<String> out = new ArrayList<>();
    if (holdoutDelayMs == null
        || !Double.isFinite(holdoutDelayMs)
        || holdoutDelayMs < 0
        || holdoutDelayMs > MAX_DELAY_MS) {
      out.add("holdout delay must be in [0, " + (int) MAX_DELAY_MS + "] ms, got " + holdoutDelayMs);
    } else if (delaysMs != null && delaysMs.contains(holdoutDelayMs)) {
      out.add(
          "holdout delay "
              + holdoutDelayMs
              + " ms is on the swept grid "
              + delaysMs
              + ": a what-if is checked off the grid, by cells the line never saw");
    }
    return out;
  }

  /** True when {@code c} is a holdout cell: measured at the what-if's delay, left out of lines. */
  public boolean isHoldout(Cell c) {
    return holdoutDelayMs != null && c.addedDelayMs() == holdoutDelayMs;
  }

  /** The largest delay a grid may name, ms (the delay proxy's own limit). */
  public static final double MAX_DELAY_MS = DelayProxy.MAX_DELAY.toMillis();
}
