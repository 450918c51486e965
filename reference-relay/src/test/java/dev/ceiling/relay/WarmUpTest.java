package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The calibration's JIT warm-up, on a fake clock (no timing): a step that costs 10 us for its first
 * 3,000 runs (interpreted) and 6 us after (compiled) must be warmed past the change before the
 * timed loop starts.
 */
class WarmUpTest {
  /** A fake step and clock: each run advances the clock by its cost. */
  static final class Jit {
    long now;
    int calls;
    final int compiledAfter;

    Jit(int compiledAfter) {
      this.compiledAfter = compiledAfter;
    }

    void run() {
      now += calls++ < compiledAfter ? 10_000 : 6_000;
    }
  }

  @Test
  void theWarmUpRunsUntilTheCodeStopsGettingFaster() throws Exception {
    Jit jit = new Jit(1_500);
    WarmUp.Result r = WarmUp.until(jit::run, () -> jit.now);
    assertThat(r.stable()).isTrue();
    // Stable means two batches after the change: the timed loop then sees only compiled cost.
    assertThat(r.runs()).isGreaterThanOrEqualTo(1_500 + 2 * WarmUp.BATCH);
    assertThat(r.runs()).isLessThanOrEqualTo(WarmUp.MIN_RUNS + 2 * WarmUp.BATCH);

    // Mutant: the old fixed warm-up of 50 runs stops in the interpreted phase: what the timed
    // loop would then measure first is 10 us, not 6 us.
    Jit cold = new Jit(1_500);
    for (int i = 0; i < 50; i++) {
      cold.run();
    }
    long t0 = cold.now;
    cold.run();
    assertThat(cold.now - t0).isEqualTo(10_000);
    long t1 = jit.now;
    jit.run();
    assertThat(jit.now - t1).isEqualTo(6_000);
  }

  @Test
  void aCompileAfterAPlateauBeyondTheMinimumIsNotSeen() throws Exception {
    // The limit of stopping on stability, stated as a test: a plateau of 2,000 runs looks settled.
    Jit late = new Jit(5_000);
    assertThat(WarmUp.until(late::run, () -> late.now).runs()).isEqualTo(WarmUp.MIN_RUNS);
  }

  @Test
  void aMachineThatNeverSettlesStopsAtTheTimeLimit() throws Exception {
    long[] now = {0};
    int[] calls = {0};
    // Alternating batch costs never agree within 5%.
    WarmUp.Result r =
        WarmUp.until(
            () -> now[0] += (calls[0]++ / WarmUp.BATCH) % 2 == 0 ? 100_000 : 200_000, () -> now[0]);
    assertThat(r.stable()).isFalse();
    assertThat(now[0]).isBetween(WarmUp.MAX_NANOS, WarmUp.MAX_NANOS + 200L * 200_000);
  }
}
