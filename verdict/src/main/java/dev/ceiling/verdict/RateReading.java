package dev.ceiling.verdict;

import java.util.Objects;

/**
 * One rate's answer to two predeclared questions about candidate - baseline: does the candidate
 * raise the value (one-sided Welch test), and is the difference within +-delta (TOST)? Both
 * p-values are Holm-adjusted across the comparable rates, each question its own family.
 *
 * @param offeredPerS the rate, events/s
 * @param baselineN baseline values
 * @param candidateN candidate values
 * @param difference mean(candidate) - mean(baseline), or null when either arm is empty
 * @param pRaise the one-sided p of H0: difference &lt;= 0, or null when not comparable (1 when both
 *     arms are exactly constant: no evidence either way)
 * @param pRaiseAdjusted its Holm-adjusted p, or null when not comparable
 * @param equivalence the TOST within +-delta (unadjusted), or null when not comparable
 * @param pEquivalenceAdjusted the TOST p (the larger one-sided p) Holm-adjusted, or null when not
 *     comparable (an untestable TOST takes part as p = 1)
 * @param reading EQUIVALENT_WITHIN_DELTA when pEquivalenceAdjusted &lt;= alpha (a raise shown as
 *     well lies within delta, the smallest difference declared to matter); else RAISES when
 *     pRaiseAdjusted &lt;= alpha; else INCONCLUSIVE
 * @param note why a rate is not comparable, why its TOST could not run, or, at an equivalent rate
 *     whose raise is also shown, that raise with its interval; null when none
 */
public record RateReading(
    double offeredPerS,
    int baselineN,
    int candidateN,
    Double difference,
    Double pRaise,
    Double pRaiseAdjusted,
    Tost equivalence,
    Double pEquivalenceAdjusted,
    Reading reading,
    String note) {

  /** One rate's reading. */
  public enum Reading {
    /**
     * The candidate raises the value (the split raises the ceiling), family-wise at alpha, and the
     * difference is not shown to lie within +-delta.
     */
    RAISES,
    /**
     * |difference| &lt; delta shown by TOST, family-wise at alpha, whether or not a (smaller than
     * delta) raise is also shown.
     */
    EQUIVALENT_WITHIN_DELTA,
    /** Neither shown: never read as "equal". */
    INCONCLUSIVE
  }

  public RateReading {
    Objects.requireNonNull(reading, "reading must not be null");
    boolean comparable = pRaise != null;
    if (comparable != (pRaiseAdjusted != null)
        || comparable != (equivalence != null)
        || comparable != (pEquivalenceAdjusted != null)) {
      throw new IllegalArgumentException(
          "test figures must all be set or all be null, got p_raise=" + pRaise);
    }
  }
}
