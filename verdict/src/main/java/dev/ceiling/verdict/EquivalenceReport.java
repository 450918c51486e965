package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The A/B's predeclared equivalence question, answered per rate: where the treatment's cost in
 * accepted/offered is shown to lie within +-delta ("costs less than delta": established), where the
 * treatment limits, and where neither is shown. Separate from the verdict's established/not: a run
 * that is not shown to limit is not thereby shown to cost nothing.
 *
 * @param margin delta, the fraction of accepted/offered the identity declared before the run
 * @param alpha the family-wise level (the verdict's family alpha), Holm across the comparable rates
 * @param comparableRates m, the rates the correction spans
 * @param rates one per grid rate, ascending
 * @param summary the answer in one or two sentences, with the rates and figures it rests on
 */
public record EquivalenceReport(
    double margin, double alpha, int comparableRates, List<RateEquivalence> rates, String summary) {
  public EquivalenceReport {
    rates = List.copyOf(rates);
    Objects.requireNonNull(summary, "summary must not be null");
    if (!(margin > 0 && margin < 1)) {
      throw new IllegalArgumentException("margin must be in (0, 1), got " + margin);
    }
    if (!(alpha > 0 && alpha < 0.5)) {
      throw new IllegalArgumentException("alpha must be in (0, 0.5), got " + alpha);
    }
    if (comparableRates < 0) {
      throw new IllegalArgumentException("comparable_rates must be >= 0, got " + comparableRates);
    }
  }

  /** The rates whose reading is {@code reading}, events/s, ascending. */
  public List<Double> ratesReading(RateEquivalence.Reading reading) {
    return rates.stream()
        .filter(r -> r.reading() == reading)
        .map(RateEquivalence::offeredPerS)
        .toList();
  }
}
