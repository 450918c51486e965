package dev.ceiling.verdict;

import java.util.Objects;

/**
 * One rate's answer to the A/B's equivalence question: is the treatment's cost, control minus
 * treatment in mean accepted/offered, within +-delta? A TOST with Welch's standard error, each
 * arm's variance at least its counts' binomial floor, Holm-adjusted across the comparable rates.
 *
 * @param offeredPerS the rate, events/s
 * @param cost mean(control) - mean(treatment) in accepted/offered, or null when the rate is not
 *     comparable
 * @param tost the TOST of cost within 0 +- delta (unadjusted), or null when not comparable
 * @param pAdjusted the TOST p (the larger one-sided p) Holm-adjusted across the comparable rates,
 *     or null when not comparable
 * @param binomialFloor true when, in at least one arm, the cells' spread was below their counts'
 *     own binomial sampling error and the floor set the standard error
 * @param reading LIMITS when the separation test separated this rate; else EQUIVALENT_WITHIN_DELTA
 *     when pAdjusted &lt;= family alpha; else INCONCLUSIVE
 * @param note why the rate is not comparable, or a remark on the reading; null when none
 */
public record RateEquivalence(
    double offeredPerS,
    Double cost,
    Tost tost,
    Double pAdjusted,
    boolean binomialFloor,
    Reading reading,
    String note) {

  /** One rate's reading. */
  public enum Reading {
    /** The treatment limits ingest here: the existing separation test separated this rate. */
    LIMITS,
    /** The cost lies within +-delta, shown by TOST family-wise at alpha, and no limit shown. */
    EQUIVALENT_WITHIN_DELTA,
    /** Neither shown: never read as "no cost". */
    INCONCLUSIVE
  }

  public RateEquivalence {
    Objects.requireNonNull(reading, "reading must not be null");
    boolean comparable = tost != null;
    if (comparable != (cost != null) || comparable != (pAdjusted != null)) {
      throw new IllegalArgumentException(
          "cost, tost and p_adjusted must all be set or all be null, got cost=" + cost);
    }
    if (!comparable && reading != Reading.INCONCLUSIVE) {
      throw new IllegalArgumentException("a rate that is not comparable must read INCONCLUSIVE");
    }
  }
}
