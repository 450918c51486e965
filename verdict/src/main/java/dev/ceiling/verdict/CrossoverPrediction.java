package dev.ceiling.verdict;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The defaults round's predicted crossover from a profile's declared budgets: the N signing keys
 * and M source addresses from which the declared limits let through everything that reaches them,
 * so that what binds is the relay's own ceiling (or nothing), not its limiter. Written into the
 * round's plan before its first cell. Pure.
 *
 * <p>Why these numbers: the offer reaches the limiter at most at the relay's ceiling (a relay whose
 * queue backs up into its connections reads no faster) and at most at the offer itself; call that
 * rate R. Spread round-robin over N keys, each key sends R / N; a sliding-window budget of L per W
 * seconds refuses none of it once R / N is at most L / W, that is from N = ceil(R W / L). Where
 * several declared budgets apply to the same key, the smallest rate binds; the same for source
 * addresses.
 *
 * @param reachingPerS R, the rate that reaches the limiter, events/s
 * @param fromCeiling true when R is the relay's ceiling, false when it is the offer
 * @param keyBudget the binding per-key budget, or null when none is declared
 * @param keys N, or null when no per-key budget is declared (any number does)
 * @param addressBudget the binding per-address budget, or null when none is declared
 * @param addresses M, or null when no per-address budget is declared
 * @param sourceAddressesTried the round's source addresses (one when the OS chooses), >= 1
 */
public record CrossoverPrediction(
    double reachingPerS,
    boolean fromCeiling,
    DeclaredBudget keyBudget,
    Integer keys,
    DeclaredBudget addressBudget,
    Integer addresses,
    int sourceAddressesTried) {

  public CrossoverPrediction {
    if (!(reachingPerS > 0 && Double.isFinite(reachingPerS))) {
      throw new IllegalArgumentException(
          "reachingPerS must be a finite number > 0, got " + reachingPerS);
    }
    if ((keyBudget == null) != (keys == null) || (addressBudget == null) != (addresses == null)) {
      throw new IllegalArgumentException("a count needs its budget and a budget its count");
    }
    if (sourceAddressesTried < 1) {
      throw new IllegalArgumentException(
          "sourceAddressesTried must be >= 1, got " + sourceAddressesTried);
    }
  }

  /**
   * Predicts the crossover.
   *
   * @param declared the declared budgets that apply to the offer
   * @param offeredPerS the round's one offered rate, events/s
   * @param ceilingPerS the relay's measured or predicted ceiling, events/s, or null when unknown
   * @param sourceAddresses the round's source addresses, or null when the OS chooses (one)
   */
  public static CrossoverPrediction predict(
      List<DeclaredBudget> declared,
      double offeredPerS,
      Double ceilingPerS,
      Integer sourceAddresses) {
    Objects.requireNonNull(declared, "declared must not be null");
    boolean fromCeiling = ceilingPerS != null && ceilingPerS > 0 && ceilingPerS < offeredPerS;
    double reaching = fromCeiling ? ceilingPerS : offeredPerS;
    Optional<DeclaredBudget> key = tightest(declared, DeclaredBudget.Scope.SIGNING_KEY);
    Optional<DeclaredBudget> address = tightest(declared, DeclaredBudget.Scope.SOURCE_ADDRESS);
    return new CrossoverPrediction(
        reaching,
        fromCeiling,
        key.orElse(null),
        key.map(b -> needed(reaching, b)).orElse(null),
        address.orElse(null),
        address.map(b -> needed(reaching, b)).orElse(null),
        sourceAddresses == null ? 1 : sourceAddresses);
  }

  private static Optional<DeclaredBudget> tightest(
      List<DeclaredBudget> declared, DeclaredBudget.Scope scope) {
    return declared.stream()
        .filter(b -> b.scope() == scope)
        .min(Comparator.comparingDouble(DeclaredBudget::perS));
  }

  /** ceil(R W / L), at least 1; the small slack keeps an exact quotient from rounding up. */
  static int needed(double reachingPerS, DeclaredBudget b) {
    double n = reachingPerS / b.perS();
    return (int) Math.max(1, Math.ceil(n - 1e-9));
  }

  /** True when the round's source addresses are fewer than the per-address budget needs. */
  public boolean addressesBindEverywhere() {
    return addresses != null && sourceAddressesTried < addresses;
  }

  /**
   * The answer in production terms, e.g. "At the declared limits an offer of 150/s needs 750 keys
   * from 38 source addresses before the relay's ceiling binds (the offer: ...)".
   */
  public String words() {
    String keysPart =
        keys == null
            ? "any number of signing keys (no per-key limit declared)"
            : plural(keys, "signing key", "signing keys");
    String addressPart =
        addresses == null
            ? "any number of source addresses (no per-address limit declared)"
            : plural(addresses, "source address", "source addresses");
    String rate =
        fromCeiling
            ? "the relay's ceiling, " + Fmt.num(round1(reachingPerS)) + "/s"
            : "the offer, " + Fmt.num(round1(reachingPerS)) + "/s";
    String budgets =
        (keyBudget == null ? "" : "; per key " + keyBudget.description())
            + (addressBudget == null ? "" : "; per address " + addressBudget.description());
    String until =
        fromCeiling ? "before the relay's ceiling binds" : "before its limiter lets it all through";
    String caveat =
        addressesBindEverywhere()
            ? String.format(
                Locale.ROOT,
                " This round's offer comes from %s, fewer: the per-address limit binds at every N.",
                plural(sourceAddressesTried, "source address", "source addresses"))
            : "";
    return "Predicted from the declared limits: an offer needs "
        + keysPart
        + " from "
        + addressPart
        + " "
        + until
        + " (what reaches the limiter: "
        + rate
        + budgets
        + ")."
        + caveat;
  }

  private static double round1(double x) {
    return Math.round(x * 10) / 10.0;
  }

  private static String plural(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
