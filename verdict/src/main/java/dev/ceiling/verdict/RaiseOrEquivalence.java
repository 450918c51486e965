package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.internal.Holm;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Two predeclared questions at every rate of a grid, with Holm's correction across rates: does the
 * candidate raise the value (one-sided Welch separation test, as in the A/B verdict), and is the
 * difference within +-delta (TOST)? Each rate reads RAISES, EQUIVALENT_WITHIN_DELTA or
 * INCONCLUSIVE; never "equal" from overlapping intervals. Equivalence takes precedence: delta is
 * declared as the smallest difference that matters, so a raise shown to lie within +-delta is not a
 * raise that matters and reads EQUIVALENT_WITHIN_DELTA, with a note giving the raise. For the split
 * design the baseline is the one-community arm and the candidate the split arm. Pure; thread-safe.
 */
public final class RaiseOrEquivalence {
  private RaiseOrEquivalence() {}

  /**
   * Judges every rate. A rate with fewer than 2 values in either arm is not comparable (reading
   * INCONCLUSIVE, not in the correction). Each question is its own family at {@code alpha}. A rate
   * whose adjusted TOST p is at most alpha reads EQUIVALENT_WITHIN_DELTA whether or not its raise
   * is also shown (then the note gives the raise and says it lies within +-delta); a rate reads
   * RAISES only when its raise is shown and its equivalence is not.
   *
   * @param rates distinct rates, at least one
   * @param delta the equivalence margin, &gt; 0, in the values' unit (e.g. 0.05 of
   *     accepted/offered), declared before the run
   * @param alpha the family-wise level of each question, in (0, 0.5)
   * @throws IllegalArgumentException naming every broken rule at once
   */
  public static List<RateReading> judge(List<RateSamples> rates, double delta, double alpha) {
    Checks checks = new Checks();
    checks.require(rates != null && !rates.isEmpty(), "rates must not be empty");
    checks.positiveFinite("delta", delta);
    checks.require(alpha > 0 && alpha < 0.5, "alpha must be in (0, 0.5), got " + alpha);
    checks.orThrow();
    checks.require(
        rates.stream().mapToDouble(RateSamples::offeredPerS).distinct().count() == rates.size(),
        "each rate must appear once");
    checks.orThrow();
    int k = rates.size();
    Double[] pRaise = new Double[k];
    Tost[] tost = new Tost[k];
    List<Integer> comparable = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      RateSamples r = rates.get(i);
      if (r.baseline().size() >= 2 && r.candidate().size() >= 2) {
        comparable.add(i);
        tost[i] = TwoSampleTost.test(r.baselineValues(), r.candidateValues(), delta, alpha);
        pRaise[i] = raiseP(r);
      }
    }
    double[] raiseAdj = Holm.adjust(comparable.stream().mapToDouble(i -> pRaise[i]).toArray());
    double[] eqAdj = Holm.adjust(comparable.stream().mapToDouble(i -> tostP(tost[i])).toArray());
    List<RateReading> out = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      int j = comparable.indexOf(i);
      out.add(
          j < 0
              ? notComparable(rates.get(i))
              : reading(rates.get(i), pRaise[i], raiseAdj[j], tost[i], eqAdj[j], alpha));
    }
    return out;
  }

  /** One-sided Welch p of H0: candidate - baseline &lt;= 0; 1 when both arms are constant. */
  private static double raiseP(RateSamples r) {
    Sample b = Sample.of(r.baselineValues());
    Sample c = Sample.of(r.candidateValues());
    return Welch.standardError(c, b) > 0 ? Welch.test(c, b, 0.0).pGreater() : 1.0;
  }

  private static double tostP(Tost t) {
    return t.p() == null ? 1.0 : t.p();
  }

  private static RateReading reading(
      RateSamples r, double pRaise, double raiseAdj, Tost tost, double eqAdj, double alpha) {
    RateReading.Reading reading;
    String note = tost.untestableReason();
    if (eqAdj <= alpha) {
      reading = RateReading.Reading.EQUIVALENT_WITHIN_DELTA;
      if (raiseAdj <= alpha) {
        note = smallRaise(tost);
      }
    } else if (raiseAdj <= alpha) {
      reading = RateReading.Reading.RAISES;
    } else {
      reading = RateReading.Reading.INCONCLUSIVE;
    }
    return new RateReading(
        r.offeredPerS(),
        r.baseline().size(),
        r.candidate().size(),
        tost.estimate(),
        pRaise,
        raiseAdj,
        tost,
        eqAdj,
        reading,
        note);
  }

  /**
   * "a raise of +0.025 [+0.010, +0.039] is shown, but it lies within +-0.05, the smallest
   * difference declared to matter": the interval is the TOST's 1 - 2 alpha interval, which lies
   * inside.
   */
  private static String smallRaise(Tost tost) {
    return String.format(
        Locale.ROOT,
        "a raise of %+.3f [%+.3f, %+.3f] is shown, but it lies within +-%s, the smallest"
            + " difference declared to matter",
        tost.estimate(),
        tost.lower(),
        tost.upper(),
        Fmt.num(tost.margin()));
  }

  private static RateReading notComparable(RateSamples r) {
    int nb = r.baseline().size();
    int nc = r.candidate().size();
    Double difference =
        nb == 0 || nc == 0
            ? null
            : Sample.of(r.candidateValues()).mean() - Sample.of(r.baselineValues()).mean();
    return new RateReading(
        r.offeredPerS(),
        nb,
        nc,
        difference,
        null,
        null,
        null,
        null,
        RateReading.Reading.INCONCLUSIVE,
        "not comparable: needs 2 values per arm, has " + nb + " baseline and " + nc + " candidate");
  }
}
