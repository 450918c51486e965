package dev.ceiling.experiment;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code explain-plan.json}: which rounds {@link Explain} runs on a profile, each round's settings
 * and directory, the rounds that cannot run on it (each with one line saying why) and the estimate
 * of the whole run. Fixed and written before the first cell; a resume recomputes it from its
 * options and refuses any difference.
 *
 * @param schema always {@link #SCHEMA}
 * @param profile the relay profile's name
 * @param relayOverrides the profile's parameters and ports changed for every round (secret values
 *     replaced by {@code (secret)})
 * @param rounds the rounds that run, in order
 * @param notRun the rounds that cannot run on this profile, each with why
 * @param estimateS the whole run's estimated length, seconds: the sum of the rounds'
 */
public record ExplainPlan(
    String schema,
    String profile,
    Map<String, String> relayOverrides,
    List<Round> rounds,
    List<NotRun> notRun,
    double estimateS) {

  /** The file's schema name. */
  public static final String SCHEMA = "ceiling-explain-plan/1";

  public ExplainPlan {
    Objects.requireNonNull(profile, "profile must not be null");
    relayOverrides = Map.copyOf(relayOverrides);
    rounds = List.copyOf(rounds);
    notRun = List.copyOf(notRun);
    if (!(estimateS >= 0 && Double.isFinite(estimateS))) {
      throw new IllegalArgumentException(
          "estimate must be a finite number >= 0 s, got " + estimateS);
    }
  }

  /** Which question a round answers. */
  public enum Kind {
    /** The A/B of the treatment arm against the control arm ({@link Experiment}). */
    AB,
    /** The delay sweep on one declared link ({@link DelaySweep}). */
    DELAY_SWEEP,
    /** The defaults round at the profile's own admission limits ({@link IdentitiesRound}). */
    DEFAULTS,
    /** The lock round: one community against two ({@link SplitRound}). */
    SPLIT
  }

  /**
   * One round that runs.
   *
   * @param name the round in words, e.g. "delay sweep on link 'db'"
   * @param kind which round
   * @param dir its directory, relative to the run's
   * @param settings its own settings, as its builder takes them
   * @param cells the cells it plans (without a ceiling ramp, which runs only where the relay
   *     predicts no ceiling)
   * @param estimateS its estimated length, seconds
   */
  public record Round(
      String name, Kind kind, String dir, Settings settings, int cells, double estimateS) {
    public Round {
      Objects.requireNonNull(name, "name must not be null");
      Objects.requireNonNull(kind, "kind must not be null");
      Objects.requireNonNull(dir, "dir must not be null");
      Objects.requireNonNull(settings, "settings must not be null");
      if (cells < 1) {
        throw new IllegalArgumentException("cells must be >= 1, got " + cells);
      }
    }
  }

  /**
   * A round's settings; a field that does not apply to its kind is null.
   *
   * @param durationS each cell's measurement window, seconds
   * @param warmupS each cell's warm-up, seconds
   * @param repeats cells per point of the grid
   * @param seed the cell order's seed, or null for the round's own order
   * @param ratesPerS the offered rates, events/s, or null when placed from the relay's calibration
   *     (a delay sweep's: its one offered rate, or null for its own placement)
   * @param rateMultiples the multiples of the relay's predicted ceiling the rates are placed at, or
   *     null for fixed rates or a round that offers no grid of rates
   * @param link the link a delay sweep moves
   * @param delaysMs the delays a delay sweep adds, ms
   * @param identities the defaults round's grid of signing keys
   * @param latencyRatePerS a delay sweep's latency offer, events/s, or null for its own (none, or
   *     0.1 x the ceiling where a ramp measured it)
   */
  public record Settings(
      double durationS,
      double warmupS,
      int repeats,
      Long seed,
      List<Double> ratesPerS,
      List<Double> rateMultiples,
      String link,
      List<Double> delaysMs,
      List<Integer> identities,
      Double latencyRatePerS,
      @com.fasterxml.jackson.annotation.JsonInclude(
              com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
          Double holdoutDelayMs) {
    public Settings {
      ratesPerS = ratesPerS == null ? null : List.copyOf(ratesPerS);
      rateMultiples = rateMultiples == null ? null : List.copyOf(rateMultiples);
      delaysMs = delaysMs == null ? null : List.copyOf(delaysMs);
      identities = identities == null ? null : List.copyOf(identities);
    }
  }

  /**
   * A round that cannot run on this profile.
   *
   * @param name the round in words
   * @param kind which round
   * @param reason why, one line
   */
  public record NotRun(String name, Kind kind, String reason) {
    public NotRun {
      Objects.requireNonNull(name, "name must not be null");
      Objects.requireNonNull(kind, "kind must not be null");
      Objects.requireNonNull(reason, "reason must not be null");
    }
  }
}
