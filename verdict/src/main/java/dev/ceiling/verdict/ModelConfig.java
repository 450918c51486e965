package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The model's inputs: a rate grid and the treatment arm's queue (capacity and one worker's drain
 * rate). Validated on construction, every broken rule at once.
 *
 * @param ratesPerS offered rates, events/s, ascending, each &gt; 0
 * @param durationS each cell's duration, seconds, &gt; 0
 * @param repeats repeats per rate, &gt;= 1, run back to back
 * @param queueCapacity the treatment arm's queue capacity, entries, &gt;= 1
 * @param workerRatePerS the worker's drain rate, entries/s, &gt; 0
 * @param gapBetweenCellsS idle time between cells during which the worker keeps draining, &gt;= 0
 * @param jitterStep repeat-to-repeat variation of the accepted count, as the seed's model has it:
 *     repeat r of R accepts (1 + (r - (R - 1)/2) x step) times the arithmetic, capped at the offer,
 *     in both arms, in [0, 0.05); 0 is exact arithmetic (every constant rate is then degenerate and
 *     can never separate) (0: back to back, as in the seed's sweep; large: every cell starts empty)
 */
public record ModelConfig(
    List<Double> ratesPerS,
    double durationS,
    int repeats,
    int queueCapacity,
    double workerRatePerS,
    double gapBetweenCellsS,
    double jitterStep) {

  /** The seed model's variation: 0.2% per repeat. */
  public static final double SEED_JITTER_STEP = 0.002;

  /** Exact arithmetic, no variation (the hand-worked fill physics). */
  public ModelConfig(
      List<Double> ratesPerS,
      double durationS,
      int repeats,
      int queueCapacity,
      double workerRatePerS,
      double gapBetweenCellsS) {
    this(ratesPerS, durationS, repeats, queueCapacity, workerRatePerS, gapBetweenCellsS, 0.0);
  }

  public ModelConfig {
    ratesPerS = List.copyOf(Objects.requireNonNull(ratesPerS, "rates_per_s must not be null"));
    Checks checks = new Checks();
    checks.require(!ratesPerS.isEmpty(), "rates_per_s must not be empty, got []");
    for (int i = 0; i < ratesPerS.size(); i++) {
      double r = ratesPerS.get(i);
      if (!(r > 0) || Double.isInfinite(r) || (i > 0 && r <= ratesPerS.get(i - 1))) {
        checks.add("rates_per_s must be finite, > 0 and strictly ascending, got " + ratesPerS);
        break;
      }
    }
    checks
        .require(
            durationS > 0 && !Double.isInfinite(durationS),
            "duration_s must be a finite number > 0, got " + durationS)
        .require(repeats >= 1, "repeats must be >= 1, got " + repeats)
        .require(queueCapacity >= 1, "queue_capacity must be >= 1, got " + queueCapacity)
        .require(
            workerRatePerS > 0 && !Double.isInfinite(workerRatePerS),
            "worker_rate_per_s must be a finite number > 0, got " + workerRatePerS)
        .require(
            gapBetweenCellsS >= 0 && !Double.isInfinite(gapBetweenCellsS),
            "gap_between_cells_s must be a finite number >= 0, got " + gapBetweenCellsS)
        .require(
            jitterStep >= 0 && jitterStep < 0.05,
            "jitter_step must be in [0, 0.05), got " + jitterStep)
        .orThrow();
  }

  /** One line, the same in every Locale. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "model: rates=%s duration_s=%s repeats=%d queue_capacity=%d worker_rate_per_s=%s"
            + " gap_between_cells_s=%s jitter_step=%s",
        ratesPerS.stream().map(Fmt::num).toList(),
        Fmt.num(durationS),
        repeats,
        queueCapacity,
        Fmt.num(workerRatePerS),
        Fmt.num(gapBetweenCellsS),
        Fmt.num(jitterStep));
  }
}
