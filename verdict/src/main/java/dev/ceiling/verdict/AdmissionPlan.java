package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The defaults round's reading of its profile's declared admission limits, fixed before its first
 * cell: what the cells cover ({@link LimiterWindowRule}) and the predicted crossover ({@link
 * CrossoverPrediction}, null when nothing is declared). Pure.
 *
 * @param declared the declared budgets that apply to the offer (empty: none declared)
 * @param coverage what each cell covers of the longest declared window
 * @param prediction the crossover predicted from the declared budgets, or null when none is
 *     declared
 */
public record AdmissionPlan(
    List<DeclaredBudget> declared,
    LimiterWindowRule.Coverage coverage,
    CrossoverPrediction prediction) {
  public AdmissionPlan {
    declared = List.copyOf(Objects.requireNonNull(declared, "declared must not be null"));
    Objects.requireNonNull(coverage, "coverage must not be null");
    if (declared.isEmpty() != (prediction == null)) {
      throw new IllegalArgumentException("a prediction needs declared limits, and they one");
    }
  }

  /**
   * The plan for cells of this warm-up and window at this offer.
   *
   * @param ceilingPerS the relay's measured or predicted ceiling, or null when unknown
   * @param sourceAddresses the round's source addresses, or null when the OS chooses
   */
  public static AdmissionPlan of(
      List<DeclaredBudget> declared,
      double warmupS,
      double windowS,
      double offeredPerS,
      Double ceilingPerS,
      Integer sourceAddresses) {
    return new AdmissionPlan(
        declared,
        LimiterWindowRule.of(declared, warmupS, windowS),
        declared.isEmpty()
            ? null
            : CrossoverPrediction.predict(declared, offeredPerS, ceilingPerS, sourceAddresses));
  }

  /**
   * The verdict answered in these terms: with declared limits, the per-key budget and the predicted
   * crossover are the declared ones and the words end with the prediction in production terms;
   * without, the words end with what the answer holds for.
   */
  public IdentitiesReport answer(IdentitiesReport r) {
    Objects.requireNonNull(r, "r must not be null");
    if (prediction == null) {
      return new IdentitiesReport(
          r.offeredPerS(),
          r.sourceAddresses(),
          r.rows(),
          r.firstFreeIdentities(),
          r.budgetPerIdentityPerS(),
          r.predictedCeilingPerS(),
          r.predictedCrossover(),
          r.words() + " " + coverage.scope());
    }
    return new IdentitiesReport(
        r.offeredPerS(),
        r.sourceAddresses(),
        r.rows(),
        r.firstFreeIdentities(),
        prediction.keyBudget() == null ? null : prediction.keyBudget().perS(),
        r.predictedCeilingPerS(),
        prediction.keys() == null ? null : prediction.keys().doubleValue(),
        r.words() + " " + prediction.words() + " " + coverage.scope());
  }
}
