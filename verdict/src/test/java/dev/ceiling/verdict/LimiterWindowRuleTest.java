package dev.ceiling.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The limiter-window rule: cells whose warm-up plus window covers the longest declared window are
 * planned; shorter ones are refused with the window and the shortest cell that would cover it. The
 * seeded test holds the rule to a simulated sliding-window limiter that, like nostream's, counts
 * every attempt (refused ones too) and refuses an attempt once more than L lie in the last W
 * seconds.
 */
class LimiterWindowRuleTest {
  private static final long SEED = Long.getLong("ceiling.seed", 20_261_207L);

  private static final DeclaredBudget PER_KEY =
      new DeclaredBudget(
          DeclaredBudget.Scope.SIGNING_KEY, 12, 60, "12 events per signing key over 60 s");
  private static final DeclaredBudget CONNECTIONS =
      new DeclaredBudget(
          DeclaredBudget.Scope.OTHER, 12, 1, "12 connections per source address over 1 s");

  @Test
  void cellsCoveringTheLongestDeclaredWindowAreNotRefused() {
    LimiterWindowRule.Coverage c = LimiterWindowRule.of(List.of(CONNECTIONS, PER_KEY), 2, 58);
    assertThat(c.covers()).isTrue();
    assertThat(c.refusal()).isNull();
    assertThat(c.longest()).isEqualTo(PER_KEY);
    assertThat(c.scope()).contains("covers the longest declared limiter window (60 s)");
  }

  /** Partner: one second short, and the round refuses, naming the window and the shortest cell. */
  @Test
  void aCellShorterThanTheDeclaredWindowIsRefusedNamingTheShortestCoveringCell() {
    LimiterWindowRule.Coverage c = LimiterWindowRule.of(List.of(CONNECTIONS, PER_KEY), 2, 5);
    assertThat(c.covers()).isFalse();
    assertThat(c.refusal())
        .contains("\"12 events per signing key over 60 s\" has a 60 s window")
        .contains("covers only 7 s")
        .contains("a window of 58 s at this warm-up")
        .doesNotContain("\n");
    assertThat(c.shortestCoveringWindowS()).isEqualTo(58.0);
  }

  @Test
  void withoutDeclaredLimitsTheAnswerSaysItHoldsOnlyForShorterLimiterWindows() {
    LimiterWindowRule.Coverage c = LimiterWindowRule.of(List.of(), 2, 5);
    assertThat(c.covers()).isTrue();
    assertThat(c.declared()).isFalse();
    assertThat(c.scope())
        .contains("declares no admission limits")
        .contains(
            "holds only for limiter windows shorter than its cells (2 s warm-up + 5 s window)");
  }

  /**
   * Seeded: over random budgets, rates, key counts and cells, a cell the rule accepts holds a
   * refusal in its window exactly when the limiter's steady state refuses; partner: among the cells
   * it refuses, some hold none while the steady state refuses (they would read "nothing binds"
   * where production refuses), so the rule is not vacuous.
   */
  @Test
  void aCoveringCellSeesTheSteadyStateRefuseAndAShortOneCanMissIt() {
    Random rnd = new Random(SEED);
    int covered = 0;
    int coveredWrong = 0;
    int shortMisread = 0;
    int trials = 0;
    while (trials < 3000) {
      int limit = 1 + rnd.nextInt(20);
      double windowS = 1 + rnd.nextInt(30);
      int keys = 1 + rnd.nextInt(50);
      double offeredPerS = 0.5 + rnd.nextDouble() * 100;
      // Each key's (L+1)-th attempt comes L N / R after its first; within 2 ms of the window the
      // millisecond stamps decide, which no rule about seconds can: such draws are skipped.
      if (Math.abs(limit * keys * 1000 / offeredPerS - windowS * 1000) < 2) {
        continue;
      }
      trials++;
      double warmupS = rnd.nextDouble() * 1.5 * windowS;
      // At least three sends in the window, so that an empty window is never read as no refusal.
      double cellWindowS = Math.max(3 / offeredPerS, 0.2 + rnd.nextDouble() * 1.5 * windowS);
      DeclaredBudget b =
          new DeclaredBudget(DeclaredBudget.Scope.SIGNING_KEY, limit, windowS, "simulated");
      // The steady state: a window of at least W and three sends, after three limiter windows.
      boolean steadyRefuses =
          SlidingWindowSim.refusedInWindow(
                  b, keys, offeredPerS, 3 * windowS, Math.max(windowS, 3 / offeredPerS))
              > 0;
      boolean cellRefuses =
          SlidingWindowSim.refusedInWindow(b, keys, offeredPerS, warmupS, cellWindowS) > 0;
      if (LimiterWindowRule.of(List.of(b), warmupS, cellWindowS).covers()) {
        covered++;
        if (cellRefuses != steadyRefuses) {
          coveredWrong++;
        }
      } else if (steadyRefuses && !cellRefuses) {
        shortMisread++;
      }
    }
    assertThat(covered).as("seed %d: covered cells simulated", SEED).isGreaterThan(500);
    assertThat(coveredWrong).as("seed %d: covered cells misread", SEED).isZero();
    assertThat(shortMisread)
        .as("seed %d: short cells that miss the refusals", SEED)
        .isGreaterThan(50);
  }
}
