package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The crossover predicted from declared budgets: N = ceil(R W / L) keys (and the same for source
 * addresses), R the smaller of the offer and the relay's ceiling. The seeded test holds it to a
 * simulated sliding-window limiter ({@link SlidingWindowSim}): at the predicted N the steady state
 * refuses nothing, one key fewer it refuses; the partner, a prediction from the loosest budget
 * instead of the tightest, misses.
 */
class CrossoverPredictionTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_207L);

  private static DeclaredBudget key(long limit, double windowS) {
    return new DeclaredBudget(
        DeclaredBudget.Scope.SIGNING_KEY,
        limit,
        windowS,
        limit + " events per key over " + windowS + " s");
  }

  private static DeclaredBudget address(long limit, double windowS) {
    return new DeclaredBudget(
        DeclaredBudget.Scope.SOURCE_ADDRESS,
        limit,
        windowS,
        limit + " messages per address over " + windowS + " s");
  }

  @Test
  void nostreamsStockLimitsAtAHundredPerSecondNeedFiveHundredKeysFromTwentyFiveAddresses() {
    // Stock nostream for kind 1: 12 per key over 60 s and 720 per key over an hour (both 0.2/s),
    // 240 messages per address over 60 s (4/s).
    CrossoverPrediction p =
        CrossoverPrediction.predict(
            List.of(key(12, 60), key(720, 3600), address(240, 60)), 150, 100.0, 64);
    assertThat(p.fromCeiling()).isTrue();
    assertThat(p.keys()).isEqualTo(500);
    assertThat(p.addresses()).isEqualTo(25);
    assertThat(p.addressesBindEverywhere()).isFalse();
    assertThat(p.words())
        .contains(
            "an offer needs 500 signing keys from 25 source addresses before the relay's ceiling binds")
        .contains("the relay's ceiling, 100/s");
  }

  /** Partner: from one source address the per-address budget binds at every N, and it says so. */
  @Test
  void fewerSourceAddressesThanTheBudgetNeedsBindAtEveryN() {
    CrossoverPrediction p =
        CrossoverPrediction.predict(List.of(key(8, 4), address(80, 4)), 40, null, null);
    assertThat(p.fromCeiling()).isFalse();
    assertThat(p.keys()).isEqualTo(20);
    assertThat(p.addresses()).isEqualTo(2);
    assertThat(p.addressesBindEverywhere()).isTrue();
    assertThat(p.words())
        .contains("before its limiter lets it all through")
        .contains("the offer, 40/s")
        .contains("from 1 source address, fewer: the per-address limit binds at every N");
  }

  @Test
  void anOfferBelowTheCeilingIsWhatReachesTheLimiter() {
    CrossoverPrediction p = CrossoverPrediction.predict(List.of(key(10, 1)), 50, 400.0, 8);
    assertThat(p.fromCeiling()).isFalse();
    assertThat(p.reachingPerS()).isEqualTo(50);
    assertThat(p.keys()).isEqualTo(5);
    assertThat(p.addresses()).isNull();
    assertThat(p.words())
        .contains("any number of source addresses (no per-address limit declared)");
  }

  @Test
  void aCountWithoutItsBudgetIsRefused() {
    assertThatThrownBy(() -> new CrossoverPrediction(10, false, null, 3, null, null, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a count needs its budget");
  }

  /**
   * Seeded: random budgets (two per key, of different windows) and offers; at the predicted N the
   * simulated steady state refuses nothing and at N - 1 it refuses; partner: the loosest budget's N
   * refuses at least once over the trials, so the rule that picks the tightest is what holds.
   */
  @Test
  void thePredictedKeysAreTheFewestAtWhichTheSteadyStateRefusesNothing() {
    Random rnd = new Random(SEED);
    int trials = 0;
    int loosestMisses = 0;
    while (trials < 1500) {
      DeclaredBudget a = key(1 + rnd.nextInt(20), 1 + rnd.nextInt(10));
      DeclaredBudget b = key(1 + rnd.nextInt(40), 1 + rnd.nextInt(20));
      double offeredPerS = 1 + rnd.nextDouble() * 100;
      CrossoverPrediction p = CrossoverPrediction.predict(List.of(a, b), offeredPerS, null, 1);
      // Within 2 ms of a window the millisecond stamps decide (see LimiterWindowRuleTest).
      if (nearBoundary(a, offeredPerS) || nearBoundary(b, offeredPerS)) {
        continue;
      }
      trials++;
      int n = p.keys();
      assertThat(steadyRefused(List.of(a, b), n, offeredPerS))
          .as("seed %d: %s and %s at %.3f/s over %d keys", SEED, a, b, offeredPerS, n)
          .isZero();
      if (n > 1) {
        assertThat(steadyRefused(List.of(a, b), n - 1, offeredPerS))
            .as("seed %d: %s and %s at %.3f/s over %d keys", SEED, a, b, offeredPerS, n - 1)
            .isPositive();
      }
      DeclaredBudget loosest = a.perS() >= b.perS() ? a : b;
      int wrong = CrossoverPrediction.needed(offeredPerS, loosest);
      if (steadyRefused(List.of(a, b), wrong, offeredPerS) > 0) {
        loosestMisses++;
      }
    }
    assertThat(loosestMisses)
        .as("seed %d: the loosest budget's N refused", SEED)
        .isGreaterThan(100);
  }

  private static boolean nearBoundary(DeclaredBudget b, double offeredPerS) {
    for (int n = 1; n <= 2000; n++) {
      if (Math.abs(b.limit() * n * 1000 / offeredPerS - b.windowS() * 1000) < 2) {
        return true;
      }
    }
    return false;
  }

  private static int steadyRefused(List<DeclaredBudget> budgets, int keys, double offeredPerS) {
    int refused = 0;
    for (DeclaredBudget b : budgets) {
      refused +=
          SlidingWindowSim.refusedInWindow(
              b, keys, offeredPerS, 3 * b.windowS(), Math.max(b.windowS(), 3 / offeredPerS));
    }
    return refused;
  }
}
