package dev.ceiling.generator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The self-check tells a saturated sender from a starved one and from one that was mostly asleep,
 * from the scheduler's figures.
 */
class SelfCheckCauseTest {

  /** The check, applied to any classifier of (cpu, run-queue wait, run) in ns. */
  static void assertTellsThemApart(Function<long[], String> cause) {
    // Busy 90% of its run, waited 5%: its own cost.
    assertThat(cause.apply(new long[] {900, 50, 1000})).startsWith("sender saturated: CPU 90%");
    // Busy 10%, runnable but waiting 60%: other work had the cores.
    assertThat(cause.apply(new long[] {100, 600, 1000}))
        .startsWith("sender runnable but not scheduled: run-queue wait 60% vs CPU 10%");
    // On a CPU 4%, waiting 2%: asleep most of the run, so neither is why it was late.
    assertThat(cause.apply(new long[] {40, 20, 1000}))
        .startsWith("sender mostly asleep: CPU 4%, run-queue wait 2%");
  }

  @Test
  void aSaturatedSenderAndAStarvedOneGetDifferentReasons() {
    assertTellsThemApart(f -> SelfCheck.cause(f[0], f[1], f[2], null));
    assertThat(SelfCheck.cause(100, null, 1000, null)).contains("run-queue wait unknown");
    // Mutant: a rule that blames the sender whenever it is bound, whatever the scheduler says.
    assertThatThrownBy(() -> assertTellsThemApart(f -> SelfCheck.cause(f[0], 0L, f[2], null)))
        .isInstanceOf(AssertionError.class);
    // Mutant: the two-way rule before the asleep case, which called 4% CPU "saturated".
    assertThatThrownBy(
            () ->
                assertTellsThemApart(
                    f -> f[1] > f[0] ? "sender runnable but not scheduled" : "sender saturated"))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void schedstatIsReadForThisThreadAndBadTextIsRefused() {
    long[] now = SchedStat.current();
    // Linux with schedstats: CPU time is positive once the thread has run; elsewhere null.
    if (now != null) {
      assertThat(now[0]).isPositive();
      assertThat(now[1]).isNotNegative();
    }
    assertThat(SchedStat.parse("123 456 7\n")).containsExactly(123, 456);
    assertThat(SchedStat.parse("garbage")).isNull();
    assertThat(SchedStat.parse("1 x 2")).isNull();
  }
}
