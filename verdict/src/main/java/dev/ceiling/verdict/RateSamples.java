package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import java.util.List;

/**
 * Two arms' evidence values at one offered rate, e.g. accepted/offered of the "one community"
 * (baseline) and "split" (candidate) arms.
 *
 * @param offeredPerS the rate, events/s, finite and &gt; 0
 * @param baseline the baseline arm's values, finite
 * @param candidate the candidate arm's values, finite
 */
public record RateSamples(double offeredPerS, List<Double> baseline, List<Double> candidate) {
  public RateSamples {
    baseline = List.copyOf(baseline);
    candidate = List.copyOf(candidate);
    new Checks()
        .positiveFinite("offered_per_s", offeredPerS)
        .require(
            baseline.stream().allMatch(Double::isFinite)
                && candidate.stream().allMatch(Double::isFinite),
            "every value must be finite at " + offeredPerS + "/s")
        .orThrow();
  }

  double[] baselineValues() {
    return baseline.stream().mapToDouble(Double::doubleValue).toArray();
  }

  double[] candidateValues() {
    return candidate.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
