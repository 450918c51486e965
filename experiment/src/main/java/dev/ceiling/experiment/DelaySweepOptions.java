package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A delay sweep's settings, validated and immutable: what {@link DelaySweep#builder()} builds.
 *
 * @param rate the one offered rate at every delay, events/s, or null for the per-point offer (see
 *     {@link #plan(RigDescriptor)})
 * @param expectedRoundTrips the declared count, or null
 * @param contrast the second arm's relay parameters, on top of {@code relayOverrides}: the same
 *     plan runs again on a relay started with them (a durability contrast, e.g. {@code
 *     synchronous_commit=off}); empty for one arm
 * @param resume true to continue the sweep in {@code outDir} from its {@code sensitivity.json}
 *     instead of starting one (see {@link Builder#resume})
 * @param attached a relay someone else brought up and will stop (a JUnit extension's), swept
 *     through the delay proxy its handle opened; null (the default) for a relay the sweep starts
 *     and stops itself
 * @param latencyRate the latency offer, events/s, well below the ceiling: the plan then measures a
 *     latency cell at it before each cell, for the latency slope ({@link LatencySlope}); null (the
 *     default) for {@link #AUTO_LATENCY_FRACTION} x the ceiling where a ramp measured it, and no
 *     latency slope otherwise
 * @param ceilingRamp the rule of the ramp that measures the relay's ceiling first where it predicts
 *     none and no rate is given ({@link RampMeasure#DEFAULT_RULE} unless set)
 * @param holdoutByLink the what-if's delay per swept link, ms ({@code --at LINK=MS}): that link's
 *     plan holds a holdout there ({@link DelaySweepPlan#holdoutDelayMs}); links without one are
 *     absent (empty: no what-if)
 * @param pointRamp each cell a ramp at its delay by this rule ({@link DelaySweepPlan.PointRamp}),
 *     at every delay, instead of one offer; null (the default) for one offer per cell, except where
 *     a ceiling ramp measured the relay's ceiling ({@link #automaticPointRampOn})
 * @param oneOfferPerCell true to keep one offer per cell even where a ceiling ramp measured the
 *     relay's ceiling (no point ramp is declared): for a sweep that wants the latency slope and the
 *     wire count, not the ceiling's slope, whose cells then cost one offer each instead of a ramp
 */
public record DelaySweepOptions(
    RelayProfile profile,
    String link,
    List<Double> delaysMs,
    int repeats,
    Duration duration,
    Double rate,
    Double expectedRoundTrips,
    double margin,
    long seed,
    Map<String, String> relayOverrides,
    Map<String, String> contrast,
    SweepOptions sweepOptions,
    VerdictConfig verdictConfig,
    Path outDir,
    DelaySweepProgress progress,
    boolean resume,
    RigHandle attached,
    Double latencyRate,
    CeilingRamp.Rule ceilingRamp,
    Map<String, Double> holdoutByLink,
    DelaySweepPlan.PointRamp pointRamp,
    boolean oneOfferPerCell) {

  /** The default grid: six added delays, ms. */
  public static final List<Double> DEFAULT_DELAYS_MS = List.of(0.0, 0.5, 1.0, 2.0, 3.0, 4.0);

  /** The default equivalence margin around a declared count, round trips per event. */
  public static final double DEFAULT_MARGIN = 0.5;

  /** The fit's interval level and the lack-of-fit test's level. */
  static final double LEVEL = 0.95;

  static final double LACK_OF_FIT_ALPHA = 0.05;

  public DelaySweepOptions {
    delaysMs = List.copyOf(delaysMs);
    relayOverrides = Map.copyOf(relayOverrides);
    contrast = Map.copyOf(contrast);
    holdoutByLink = holdoutByLink == null ? Map.of() : Map.copyOf(holdoutByLink);
  }

  /** The directory, under {@link #outDir()}, of the contrast arm's own report and journals. */
  public static final String CONTRAST_DIR = "contrast";

  /**
   * The contrast arm's options: the relay started with the contrast's parameters on top of the
   * base's, its files in {@link #CONTRAST_DIR}, and no contrast of its own.
   */
  DelaySweepOptions forContrast() {
    Map<String, String> merged = new java.util.TreeMap<>(relayOverrides);
    merged.putAll(contrast);
    return derived(link, expectedRoundTrips, merged, Map.of(), outDir.resolve(CONTRAST_DIR), null);
  }

  /** One link's sweep of a sweep per link: that link, its declared count, its own directory. */
  DelaySweepOptions forLink(String name, Double expected) {
    return derived(name, expected, relayOverrides, contrast, outDir.resolve(name), attached);
  }

  /** These options with what a derived sweep (a contrast arm, one link's sweep) changes. */
  private DelaySweepOptions derived(
      String sweptLink,
      Double expected,
      Map<String, String> overrides,
      Map<String, String> contrastParameters,
      Path dir,
      RigHandle running) {
    return new DelaySweepOptions(
        profile,
        sweptLink,
        delaysMs,
        repeats,
        duration,
        rate,
        expected,
        margin,
        seed,
        overrides,
        contrastParameters,
        sweepOptions,
        verdictConfig,
        dir,
        progress,
        resume,
        running,
        latencyRate,
        ceilingRamp,
        holdoutByLink,
        pointRamp,
        oneOfferPerCell);
  }

  /**
   * The plan for the relay that came up: the given rate at every delay, or the per-point rule
   * ({@link DelaySweep#OFFER_MULTIPLE} x each point's predicted ceiling, plus what fills the
   * relay's queue within the warm-up) capped by a first offer of {@link DelaySweep#OFFER_MULTIPLE}
   * x its predicted hot ceiling at zero added delay.
   *
   * @throws AutoRates.MissingCeilingException when no rate was given and the relay predicts none
   */
  DelaySweepPlan plan(RigDescriptor rig) throws AutoRates.MissingCeilingException {
    if (pointRamp != null) {
      return plan(pointRamp.rule().maxPerS(), pointRamp.text(), null, null, pointRamp);
    }
    if (rate != null) {
      return plan(rate, "given: " + rate + " events/s at every delay", null);
    }
    return perPoint(rig, AutoRates.range(rig), "the relay's predicted ceiling at zero added delay");
  }

  /**
   * The per-point plan from {@code range}, the ceiling at zero added delay {@code source} names.
   */
  private DelaySweepPlan perPoint(RigDescriptor rig, AutoRates.Range range, String source) {
    double warmupS = sweepOptions.warmup().toNanos() / 1e9;
    double fillPerS =
        rig.queueCapacity() == null || !(warmupS > 0) ? 0 : 2 * rig.queueCapacity() / warmupS;
    double first = Math.max(1, Math.round(range.highPerS() * DelaySweep.OFFER_MULTIPLE));
    return plan(
        first,
        String.format(
            java.util.Locale.ROOT,
            "per point: the larger of %s x the ceiling predicted at the cell's delay by the line"
                + " through the cells used before it, and that ceiling + %.1f/s (the queue of %s"
                + " filled within half the %.1f s warm-up); at most, and until the used cells span two"
                + " delays, %s x %s (the high end of %s), which saturates every point",
            DelaySweep.OFFER_MULTIPLE,
            fillPerS,
            rig.queueCapacity(),
            warmupS,
            DelaySweep.OFFER_MULTIPLE,
            source,
            range.text()),
        new DelaySweepPlan.PerPointOffer(DelaySweep.OFFER_MULTIPLE, fillPerS));
  }

  /**
   * The plan for a relay that predicts no ceiling, from the one {@code ramp} measured: as {@link
   * #plan(RigDescriptor)} places its offers from a prediction, with the ramp in the plan.
   */
  DelaySweepPlan plan(RigDescriptor rig, CeilingRamp ramp) {
    double c = Objects.requireNonNull(ramp.ceilingPerS(), "the ramp found no ceiling");
    DelaySweepPlan p =
        perPoint(
            rig, new AutoRates.Range(c, c), "the ceiling the ramp measured at zero added delay");
    DelaySweepPlan.PointRamp point = automaticPointRampOn(ramp);
    String rule =
        point == null
            ? p.offerRule()
            : String.format(
                java.util.Locale.ROOT,
                "%s; its offers from %s x up to %s x the ceiling the ramp measured at zero added"
                    + " delay (%s/s): %s",
                point.text(),
                POINT_RAMP_START_FRACTION,
                POINT_RAMP_CAP_MULTIPLE,
                c,
                ramp.collapsed()
                    ? "the ramp saw the relay collapse above its ceiling, so no one offer saturates"
                        + " a cell without collapsing it"
                    : "the ramp stopped at one saturated step, which cannot say whether the relay"
                        + " holds its ceiling under a higher offer or was read before it warmed up,"
                        + " so each cell finds its own saturation");
    if (latencyRate == null) {
      Double latency = automaticLatencyRate(c, p.offeredPerS());
      rule +=
          latency == null
              ? "; no latency slope: "
                  + AUTO_LATENCY_FRACTION
                  + " x the ramp's ceiling is not below the first offer"
              : String.format(
                  java.util.Locale.ROOT,
                  "; latency cells at %s x the ramp's ceiling, %.0f/s (well below it; --latency-rate"
                      + " overrides)",
                  AUTO_LATENCY_FRACTION,
                  latency);
    }
    return point == null
        ? plan(p.offeredPerS(), rule, p.perPointOffer(), ramp, null)
        : plan(point.rule().maxPerS(), rule, null, ramp, point);
  }

  /**
   * Where each point's ramp starts, as a fraction of the ceiling the ceiling ramp measured at zero
   * added delay: low enough that a link that bounds the ceiling still leaves the first step below
   * the ceiling at the grid's largest delay (at 4 ms, a relay at 400/s with one connection making
   * one round trip per event has a ceiling of 1 / (2.5 + 4) ms, about 150/s, 0.38 x), so the ramp
   * has a step it sustained there.
   */
  static final double POINT_RAMP_START_FRACTION = 0.25;

  /**
   * Each step of a point's ramp over the one before. A relay that collapses right above its ceiling
   * is read at the highest step it followed, up to this factor below its ceiling: 1.25 keeps that
   * within 20% (a relay that holds its ceiling is read at its saturated step's own rate), and a
   * ramp from 0.25 x to 3 x the ceiling in at most twelve steps.
   */
  static final double POINT_RAMP_FACTOR = 1.25;

  /**
   * Where each point's ramp stops at the latest, as a multiple of the ceiling the ceiling ramp
   * measured at zero added delay. A cell's ramp ends at the first step that saturates or collapses,
   * so the cap costs steps only in a cell that never saturates, and a cap too low costs the cell:
   * at 1.5 x (the single offer's multiple) a ceiling ramp that read the relay low, under a load
   * that then eased (nostream beside a load of 10 to 28: 67.5/s at the ramp, 101/s sustained in the
   * cells), left every cell's ramp at its cap unsaturated and no ceiling slope. An added delay only
   * lowers a link-bound ceiling, so 3 x covers a relay up to twice as fast in its cells as in the
   * ramp, at three more steps of x 1.25 where a cell never saturates.
   */
  static final double POINT_RAMP_CAP_MULTIPLE = 3;

  /** The pause after each point's ramp, s ({@link DelaySweepPlan.PointRamp#settleS}). */
  static final double POINT_RAMP_SETTLE_S = 2;

  /**
   * The point ramp a plan on the ceiling ramp {@code ramp} declares when none was given: {@link
   * #automaticPointRamp} wherever the ramp measured a ceiling and one offer per cell was not asked
   * for, else none. The plan and a resume's check of the stored plan both decide here.
   *
   * <p>Not only where the ramp saw the relay collapse. The ramp stops at its first saturated step,
   * one short window, so it cannot tell a relay that holds its ceiling under 1.5 x that reading
   * from one that collapses there, nor a reading taken while the relay was still cold from its
   * steady ceiling. nostream on its database link (7 Dec 2026, quiet machine, load 0.33): the ramp
   * read 279/s at its 400/s step, saturated with agreeing halves, and all 18 cells of the sweep
   * then answered every one of their 419/s at every delay: not one saturated cell, no ceiling
   * slope. A ramp per cell finds each delay's saturation from below, whatever the ramp read.
   */
  DelaySweepPlan.PointRamp automaticPointRampOn(CeilingRamp ramp) {
    return ramp != null && ramp.ceilingPerS() != null && !oneOfferPerCell
        ? automaticPointRamp(ramp.ceilingPerS(), ramp.rule())
        : null;
  }

  /**
   * The point ramp a plan declares where the ceiling ramp saw the relay collapse: from {@link
   * #POINT_RAMP_START_FRACTION} x the ceiling, x {@link #POINT_RAMP_FACTOR} per step, up to {@link
   * #POINT_RAMP_CAP_MULTIPLE} x the ceiling (the plan's first offer, the most any cell is offered),
   * each step a cell's window, saturated at the ceiling ramp's tolerance. A function of the ceiling
   * ramp alone, so it is fixed before the first cell and a resume rebuilds it from the stored ramp.
   */
  DelaySweepPlan.PointRamp automaticPointRamp(double ceilingPerS, CeilingRamp.Rule ramp) {
    double cap = Math.max(2, (double) Math.round(POINT_RAMP_CAP_MULTIPLE * ceilingPerS));
    double start =
        Math.min(
            cap / 2, Math.max(1, (double) Math.round(POINT_RAMP_START_FRACTION * ceilingPerS)));
    return new DelaySweepPlan.PointRamp(
        new CeilingRamp.Rule(
            start, POINT_RAMP_FACTOR, ramp.tolerance(), cap, duration.toNanos() / 1e9),
        POINT_RAMP_SETTLE_S);
  }

  /**
   * The latency offer, as a fraction of the ramp's ceiling, where the ramp measured the ceiling and
   * no latency rate was given. At a tenth of the ceiling an event meets a queue about a ninth of
   * its own service time long (a single server's mean wait is rho / (1 - rho) service times), so
   * the OK latency is the OK path and its round trips, not the queue's wait. It also leaves the
   * latency cells ten times below the ceiling measured at no added delay, room for everything that
   * lowers the ceiling during the sweep: the added delay on a link that bounds it (1 / C grows by k
   * x d over the link's concurrency), a neighbour's load, a ramp that overshot. Above about a
   * quarter, a link that bounds the ceiling would put the largest delays' latency cells near
   * saturation, where the latency holds the queue's wait and the cell is not used. Below it, the
   * latency cells hold fewer answers (at a ceiling of 200/s, 20/s over a 5 s window is 100, enough
   * for a median).
   */
  static final double AUTO_LATENCY_FRACTION = 0.1;

  /**
   * The latency offer the plan declares from the ramp's {@code ceilingPerS}: {@link
   * #AUTO_LATENCY_FRACTION} x it, rounded, at least 1/s; or null when that is not below {@code
   * firstOfferPerS} (a ceiling of a few events/s, where no offer fits between).
   */
  static Double automaticLatencyRate(double ceilingPerS, double firstOfferPerS) {
    double r = Math.max(1, Math.round(AUTO_LATENCY_FRACTION * ceilingPerS));
    return r < firstOfferPerS ? r : null;
  }

  /**
   * The plan these options declare with the first offer {@code offerPerS}, which {@code rule} puts
   * in words, and the per-point rule {@code perPoint} (null: every cell at {@code offerPerS}): what
   * a resume compares the stored plan with, at the stored offer and rule.
   */
  DelaySweepPlan plan(double offerPerS, String rule, DelaySweepPlan.PerPointOffer perPoint) {
    return plan(offerPerS, rule, perPoint, null);
  }

  /**
   * As {@link #plan(double, String, DelaySweepPlan.PerPointOffer)}, with the ramp, or null. Without
   * a latency rate, a plan whose offers rest on a ramp declares its latency offer from the ramp's
   * ceiling ({@link #automaticLatencyRate}); a given latency rate wins.
   */
  DelaySweepPlan plan(
      double offerPerS, String rule, DelaySweepPlan.PerPointOffer perPoint, CeilingRamp ramp) {
    return plan(offerPerS, rule, perPoint, ramp, null);
  }

  /**
   * As {@link #plan(double, String, DelaySweepPlan.PerPointOffer, CeilingRamp)}, with a point ramp.
   */
  DelaySweepPlan plan(
      double offerPerS,
      String rule,
      DelaySweepPlan.PerPointOffer perPoint,
      CeilingRamp ramp,
      DelaySweepPlan.PointRamp point) {
    Double latency =
        latencyRate != null || ramp == null
            ? latencyRate
            : automaticLatencyRate(ramp.ceilingPerS(), offerPerS);
    return DelaySweepPlan.builder()
        .link(link)
        .delaysMs(delaysMs)
        .repeats(repeats)
        .offeredPerS(offerPerS)
        .offerRule(rule)
        .perPointOffer(perPoint)
        .durationS(duration.toNanos() / 1e9)
        .seed(seed)
        .level(LEVEL)
        .lackOfFitAlpha(LACK_OF_FIT_ALPHA)
        .expectedRoundTrips(expectedRoundTrips)
        .margin(margin)
        .latencyOfferedPerS(latency)
        .ceilingRamp(ramp)
        .holdoutDelayMs(holdoutByLink.get(link))
        .pointRamp(point)
        .build();
  }

  /**
   * How long {@code cells} cells take: each one's warm-up, window, grace and a drain's allowance.
   */
  Duration estimate(int cells) {
    return estimate(cells, null);
  }

  /**
   * As {@link #estimate(int)} under {@code plan}: a point ramp's cell counts as the steps its rule
   * offers below the ceiling it rests on (the ceiling ramp's, or its maximum over {@link
   * DelaySweep#OFFER_MULTIPLE} for a point ramp given without one) and one more, plus its pause.
   */
  Duration estimate(int cells, DelaySweepPlan plan) {
    if (plan != null && plan.pointRamp() != null) {
      CeilingRamp.Rule r = plan.pointRamp().rule();
      double ceiling =
          plan.ceilingRamp() != null && plan.ceilingRamp().ceilingPerS() != null
              ? plan.ceilingRamp().ceilingPerS()
              : r.maxPerS() / DelaySweep.OFFER_MULTIPLE;
      long steps = r.offers().stream().filter(o -> o < ceiling).count() + 1;
      return estimate(1)
          .multipliedBy(steps)
          .plus(Duration.ofMillis(Math.round(plan.pointRamp().settleS() * 1000)))
          .multipliedBy(cells);
    }
    return sweepOptions
        .warmup()
        .plus(duration)
        .plus(sweepOptions.grace())
        .plus(Duration.ofSeconds(2))
        .multipliedBy(cells);
  }

  /** Fluent configuration; {@link #run()} validates every option at once and runs. */
  public static final class Builder extends MeasurementBuilder<Builder> {
    String link;
    List<Double> delaysMs = DEFAULT_DELAYS_MS;
    Double rate;
    Double expectedRoundTrips;
    double margin = DEFAULT_MARGIN;
    long seed = 1;
    DelaySweepProgress progress = DelaySweepProgress.NONE;
    Map<String, String> contrast = Map.of();
    boolean resume;
    RigHandle attached;
    Double latencyRate;
    List<String> links;
    Map<String, Double> expectedByLink = Map.of();
    CeilingRamp.Rule ceilingRamp = RampMeasure.DEFAULT_RULE;
    Map<String, Double> holdoutByLink = Map.of();
    DelaySweepPlan.PointRamp pointRamp;
    boolean oneOfferPerCell;

    /** Cells of 3 s after a warm-up of 1 s by default. */
    Builder() {
      super(
          Duration.ofSeconds(3),
          SweepOptions.defaults(Path.of("journal.jsonl")).withWarmup(Duration.ofSeconds(1)));
    }

    @Override
    Builder self() {
      return this;
    }

    /** The upstream whose delay is swept (required). */
    public Builder link(String name) {
      this.link = name;
      return this;
    }

    /**
     * Sweeps each of these upstreams in turn instead of one {@link #link}: see {@link LinkSweeps},
     * which {@link #runLinks()} runs.
     */
    public Builder links(List<String> names) {
      this.links = names == null ? null : List.copyOf(names);
      return this;
    }

    /** The counts declared before a sweep per link, by link; links without one are absent. */
    public Builder expectRoundTripsByLink(Map<String, Double> byLink) {
      this.expectedByLink = Objects.requireNonNull(byLink, "byLink");
      return this;
    }

    /** The added round-trip delays, ms, ascending, at least 2 (default 0, 0.5, 1, 2, 3, 4). */
    public Builder delaysMs(List<Double> ms) {
      this.delaysMs = ms;
      return this;
    }

    /**
     * The one offered rate, events/s; null (the default) for 1.5 x the relay's predicted hot
     * ceiling.
     */
    public Builder rate(Double perS) {
      this.rate = perS;
      return this;
    }

    /**
     * The latency offer, events/s, well below the ceiling (below {@link #rate} when that is given):
     * before each cell a latency cell at this offer measures the OK latency at the cell's delay,
     * and the declared count is tested on the latency slope (see {@link LatencySlope}); null (the
     * default) for none.
     */
    public Builder latencyRate(Double perS) {
      this.latencyRate = perS;
      return this;
    }

    /**
     * A what-if per link ({@code --at LINK=MS}): the round-trip delay the link has in production,
     * ms. The link's plan then holds {@link #repeats} holdout cells at that delay, shuffled with
     * the grid's and left out of the lines, and the report says what the lines predict there and
     * whether the holdout fell inside ({@link DelaySweepWhatIf}). Each link must be swept, each
     * delay off the grid and in [0, {@link DelaySweepPlan#MAX_DELAY_MS}] ms. Empty (the default)
     * for none.
     */
    public Builder holdoutAt(Map<String, Double> msByLink) {
      this.holdoutByLink = Objects.requireNonNull(msByLink, "msByLink");
      return this;
    }

    /** The count declared before the run, tested with TOST within the margin; null for none. */
    public Builder expectRoundTrips(Double k) {
      this.expectedRoundTrips = k;
      return this;
    }

    /** The equivalence margin, round trips per event (default 0.5). */
    public Builder margin(double m) {
      this.margin = m;
      return this;
    }

    /** The seed of the cell order (default 1). */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /**
     * A second arm: the same plan again on a relay started with these parameters on top of the
     * base's (e.g. {@code synchronous_commit=off}). Its slope must agree with the base's within the
     * margin, and the intercepts differ by what the parameters cost per event. Empty (the default)
     * for one arm.
     */
    public Builder contrast(Map<String, String> parameters) {
      this.contrast = Objects.requireNonNull(parameters, "contrast");
      return this;
    }

    /**
     * Continue the interrupted or partial sweep in {@link #outDir}: its {@code sensitivity.json}'s
     * plan is the plan (its offered rate included: no new calibration), only the planned cells not
     * in the file are measured, in the plan's order, on a relay started afresh, and every cell in
     * the file is kept. Refused before a relay starts when the file is missing, unreadable or
     * complete, or when these options declare another plan (give the options the sweep was started
     * with; {@link #rate} may be left out); refused once the relay is up when it differs from the
     * file's in the identity an experiment's resume checks (Ceiling's and the relay's builds, its
     * parameters, limiter, queue, communities). With a contrast, the base arm's missing cells run
     * first, then the contrast arm's.
     */
    public Builder resume(boolean value) {
      this.resume = value;
      return this;
    }

    /**
     * Sweeps a relay that is already running instead of starting one: the relay {@code running}
     * brought up, with the delay proxies it opened (proxied upstreams, {@link
     * dev.ceiling.rig.UpOptions}' default). The sweep sets the link's delay, reads its counters and
     * sets the delay back to zero at the end; it never stops the relay, whose owner (the JUnit
     * extension that started it, say) does, and installs no Ctrl-C hook: the owner's process
     * handles signals, and {@link DelaySweep#interrupt()} stops the sweep after its running cell.
     * The profile must be the one the relay was started from; relay overrides and a contrast are
     * refused, since they apply to relays the sweep starts.
     */
    public Builder attach(RigHandle running) {
      this.attached = Objects.requireNonNull(running, "running");
      return this;
    }

    /**
     * The rule of the ramp that measures the relay's ceiling before the first cell where the relay
     * predicts none and no rate is given (default {@link RampMeasure#DEFAULT_RULE}).
     */
    public Builder ceilingRamp(CeilingRamp.Rule rule) {
      this.ceilingRamp = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /**
     * Each cell a ramp at its delay by {@code rule}, then a pause of {@code settleS} s, at every
     * delay ({@link DelaySweepPlan.PointRamp}): for a relay whose answered rate falls under an
     * offer above its ceiling. The rule's window must be the cells' duration and its maximum is the
     * plan's first offer; {@link #rate} is then refused. Without it a plan declares one where its
     * ceiling ramp measured the relay's ceiling.
     */
    public Builder pointRamp(CeilingRamp.Rule rule, double settleS) {
      this.pointRamp = new DelaySweepPlan.PointRamp(rule, settleS);
      return this;
    }

    /**
     * One offer per cell even where a ceiling ramp measured the relay's ceiling: no point ramp is
     * declared, so the sweep reads the latency slope and the wire count at a cell's cost each, and
     * its ceiling slope rests on one offer per cell (docs/METHODOLOGY.md, "The delay sweep").
     */
    public Builder oneOfferPerCell() {
      this.oneOfferPerCell = true;
      return this;
    }

    public Builder progress(DelaySweepProgress p) {
      this.progress = Objects.requireNonNull(p, "progress");
      return this;
    }

    /**
     * Every problem with the settings so far, at once; empty when they are good (the output
     * directory is {@link #build()}'s to check). A link the profile does not declare is named with
     * the ones it does.
     */
    public List<String> problems() {
      return problemsOf(this);
    }

    /**
     * The problems of {@link #contrast} alone (a parameter the profile does not declare, or one
     * that would not change the base arm), for a caller that names the option by its own flag;
     * empty before a profile is set. {@link #problems()} holds them too, as their {@link
     * OptionProblem#message()}.
     */
    public List<OptionProblem> contrastProblems() {
      return profile == null ? List.of() : contrastProblemsOf(this);
    }

    /**
     * Validates every option at once.
     *
     * @throws ExperimentException naming every problem, "; "-separated
     */
    public DelaySweepOptions build() throws ExperimentException {
      if (links != null) {
        throw new ExperimentException("a sweep per link is built by buildLinks()", null);
      }
      return validated(link);
    }

    private DelaySweepOptions validated(String name) throws ExperimentException {
      List<String> problems = new ArrayList<>(problems());
      if (outDir == null) {
        problems.add("outDir is required");
      }
      if (!problems.isEmpty()) {
        throw new ExperimentException(String.join("; ", problems), null);
      }
      return new DelaySweepOptions(
          profile,
          name,
          delaysMs,
          repeats,
          duration,
          rate,
          expectedRoundTrips,
          margin,
          seed,
          relayOverrides,
          contrast,
          sweepOptions,
          verdictConfig,
          outDir,
          progress,
          resume,
          attached,
          latencyRate,
          ceilingRamp,
          holdoutByLink,
          pointRamp,
          oneOfferPerCell);
    }

    /** Validates and runs. */
    public DelaySweepResult run() throws ExperimentException {
      return DelaySweep.of(build()).run();
    }

    /**
     * Validates a sweep per link ({@link #links}) and fixes its plan.
     *
     * @throws ExperimentException naming every problem, "; "-separated
     */
    public LinkSweeps buildLinks() throws ExperimentException {
      if (links == null) {
        throw new ExperimentException("a sweep per link needs links", null);
      }
      if (resume || attached != null) {
        throw new ExperimentException(
            "a sweep per link starts a relay for each link: resume or attach one link's sweep",
            null);
      }
      return LinkSweeps.of(validated(links.get(0)), links, expectedByLink);
    }

    /** Validates and runs a sweep per link. */
    public LinkSweepsResult runLinks() throws ExperimentException {
      return buildLinks().run();
    }

    // ---- The checks: every setting at once, before anything starts ----

    /**
     * Every problem with the settings so far, at once; empty when they are good (the output
     * directory is {@link #build()}'s to check). A link the profile does not declare is named with
     * the ones it does.
     */
    private static List<String> problemsOf(Builder b) {
      List<String> out = new ArrayList<>();
      if (b.profile == null) {
        out.add("profile is required");
      } else {
        List<String> declared = b.profile.linkNames();
        if (declared.isEmpty()) {
          out.add(
              "profile '"
                  + b.profile.name()
                  + "' declares no upstreams and no delay controls, so no link can be swept");
        } else if (b.links != null) {
          if (b.link != null || b.expectedRoundTrips != null) {
            out.add("a sweep per link takes links and counts by link, not one link or count");
          }
          out.addAll(
              LinkSweeps.problems(b.links, declared, b.expectedByLink, !b.contrast.isEmpty()));
        } else if (!b.expectedByLink.isEmpty()) {
          out.add("counts by link are for a sweep per link (links); one link takes one count");
        } else if (b.link == null || !declared.contains(b.link)) {
          out.add(
              "link '"
                  + b.link
                  + "' is not a link of profile '"
                  + b.profile.name()
                  + "', which declares "
                  + declared);
        }
      }
      if (b.delaysMs == null || b.delaysMs.stream().anyMatch(Objects::isNull)) {
        out.add("delays must be a list of numbers, got " + b.delaysMs);
      } else {
        out.addAll(DelaySweepPlan.problemsOfGrid(b.delaysMs));
      }
      if (b.repeats < 2) {
        out.add(
            "repeats must be >= 2 (the lack-of-fit test needs the scatter of repeats), got "
                + b.repeats);
      }
      if (b.duration == null || b.duration.isZero() || b.duration.isNegative()) {
        out.add("duration must be > 0, got " + b.duration);
      }
      if (b.pointRamp != null && b.oneOfferPerCell) {
        out.add(
            "a point ramp and one offer per cell exclude each other: a cell is a ramp or one offer");
      }
      if (b.pointRamp != null && b.rate != null) {
        out.add("a point ramp and a rate exclude each other: a cell is a ramp or one offer");
      }
      if (b.pointRamp != null
          && b.duration != null
          && b.pointRamp.rule().windowS() != b.duration.toNanos() / 1e9) {
        out.add(
            "the point ramp's window must be the cells' duration "
                + b.duration.toNanos() / 1e9
                + " s, got "
                + b.pointRamp.rule().windowS());
      }
      if (b.rate != null && !(b.rate > 0 && Double.isFinite(b.rate))) {
        out.add("rate must be a finite number > 0 events/s, got " + b.rate);
      }
      if (b.latencyRate != null && !(b.latencyRate > 0 && Double.isFinite(b.latencyRate))) {
        out.add("latency rate must be a finite number > 0 events/s, got " + b.latencyRate);
      } else if (b.latencyRate != null && b.rate != null && !(b.latencyRate < b.rate)) {
        out.add(
            "latency rate must be below the rate "
                + b.rate
                + " events/s (the latency slope is read well below the ceiling), got "
                + b.latencyRate);
      }
      if (b.expectedRoundTrips != null
          && !(b.expectedRoundTrips >= 0 && Double.isFinite(b.expectedRoundTrips))) {
        out.add("expected round trips must be a finite number >= 0, got " + b.expectedRoundTrips);
      }
      if (!(b.margin > 0 && Double.isFinite(b.margin))) {
        out.add("margin must be a finite number > 0 round trips per event, got " + b.margin);
      }
      if (b.profile != null) {
        contrastProblemsOf(b).forEach(p -> out.add(p.message()));
      }
      out.addAll(holdoutProblemsOf(b));
      if (b.attached != null) {
        out.addAll(attachedProblems(b));
      }
      return out;
    }

    /**
     * Each what-if names a link this sweep sweeps and a delay a holdout can be measured at: off the
     * grid (cells on it would be the line's own), within the proxy's limit.
     */
    private static List<String> holdoutProblemsOf(Builder b) {
      List<String> out = new ArrayList<>();
      List<String> swept = b.links != null ? b.links : b.link == null ? List.of() : List.of(b.link);
      for (Map.Entry<String, Double> e : new java.util.TreeMap<>(b.holdoutByLink).entrySet()) {
        if (!swept.contains(e.getKey())) {
          out.add(
              "what-if link '" + e.getKey() + "' is not swept (the sweep sweeps " + swept + ")");
        }
        DelaySweepPlan.problemsOfHoldout(b.delaysMs, e.getValue()).stream()
            .map(q -> "what-if on link '" + e.getKey() + "': " + q)
            .forEach(out::add);
      }
      return out;
    }

    /**
     * A running relay is swept as it was started: from this profile, with the proxy on the link,
     * and with no parameters of the sweep's own.
     */
    private static List<String> attachedProblems(Builder b) {
      List<String> out = new ArrayList<>();
      String started = b.attached.descriptor().profile();
      if (b.profile != null && !b.profile.name().equals(started)) {
        out.add(
            "the running relay was started from profile '"
                + started
                + "', not '"
                + b.profile.name()
                + "'");
      }
      if (b.link != null
          && !b.attached.proxies().containsKey(b.link)
          && !b.attached.delayControls().containsKey(b.link)) {
        out.add(
            "the running relay has no delay proxy or delay control on link '"
                + b.link
                + "' (it was started with "
                + DelayLink.names(b.attached)
                + "; upstreams linked directly have no proxy)");
      }
      if (!b.relayOverrides.isEmpty()) {
        out.add(
            "relay overrides "
                + new java.util.TreeMap<>(b.relayOverrides)
                + " cannot apply to a running relay: start it with them");
      }
      if (!b.contrast.isEmpty()) {
        out.add(
            "a contrast needs a second relay the sweep starts itself; a sweep of a running relay"
                + " measures one arm");
      }
      if (b.resume) {
        out.add(
            "resume starts a relay afresh for the missing cells; a sweep of a running relay"
                + " cannot resume one");
      }
      return out;
    }

    /**
     * A contrast parameter must be one the profile declares, and must change what the base arm
     * runs: a contrast equal to the base measures nothing.
     */
    private static List<OptionProblem> contrastProblemsOf(Builder b) {
      List<OptionProblem> out = new ArrayList<>();
      for (Map.Entry<String, String> e : new java.util.TreeMap<>(b.contrast).entrySet()) {
        String base =
            b.relayOverrides.getOrDefault(e.getKey(), b.profile.parameters().get(e.getKey()));
        if (!b.profile.parameters().containsKey(e.getKey())) {
          out.add(
              new OptionProblem(
                  "contrast",
                  e.getKey()
                      + " is not a parameter of profile '"
                      + b.profile.name()
                      + "', which declares "
                      + new java.util.TreeSet<>(b.profile.parameters().keySet())));
        } else if (e.getValue().equals(base)) {
          out.add(
              new OptionProblem(
                  "contrast",
                  e.getKey()
                      + "="
                      + e.getValue()
                      + " is what the base arm runs already: the arms would not differ"));
        }
      }
      return out;
    }
  }
}
