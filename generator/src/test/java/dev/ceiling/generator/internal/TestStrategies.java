package dev.ceiling.generator.internal;

import dev.ceiling.generator.internal.RunStrategies.AuthResponder;
import dev.ceiling.generator.internal.RunStrategies.GraceRule;
import dev.ceiling.generator.internal.RunStrategies.OkMatcher;
import dev.ceiling.generator.internal.RunStrategies.ScheduledOrigin;
import dev.ceiling.generator.internal.RunStrategies.SendClock;
import dev.ceiling.generator.internal.RunStrategies.WakeFloorProbe;

/**
 * {@link RunStrategies} with one rule swapped: how the tests put a mutant or a fake clock into a
 * run. Production code runs {@link RunStrategies#PRODUCTION} and never swaps a rule.
 */
final class TestStrategies {
  private TestStrategies() {}

  /** {@code r} with {@code c} for the send instant. */
  static RunStrategies withSendClock(RunStrategies r, SendClock c) {
    return new RunStrategies(
        r.dueRule(),
        c,
        r.okMatcher(),
        r.scheduledOrigin(),
        r.graceRule(),
        r.authResponder(),
        r.wakeFloor());
  }

  /** {@code r} with {@code m} for matching OKs. */
  static RunStrategies withOkMatcher(RunStrategies r, OkMatcher m) {
    return new RunStrategies(
        r.dueRule(),
        r.sendClock(),
        m,
        r.scheduledOrigin(),
        r.graceRule(),
        r.authResponder(),
        r.wakeFloor());
  }

  /** {@code r} with {@code o} for the scheduled latency's origin. */
  static RunStrategies withScheduledOrigin(RunStrategies r, ScheduledOrigin o) {
    return new RunStrategies(
        r.dueRule(),
        r.sendClock(),
        r.okMatcher(),
        o,
        r.graceRule(),
        r.authResponder(),
        r.wakeFloor());
  }

  /** {@code r} with {@code g} for the end of the grace period. */
  static RunStrategies withGraceRule(RunStrategies r, GraceRule g) {
    return new RunStrategies(
        r.dueRule(),
        r.sendClock(),
        r.okMatcher(),
        r.scheduledOrigin(),
        g,
        r.authResponder(),
        r.wakeFloor());
  }

  /** {@code r} with {@code a} for AUTH challenges. */
  static RunStrategies withAuthResponder(RunStrategies r, AuthResponder a) {
    return new RunStrategies(
        r.dueRule(),
        r.sendClock(),
        r.okMatcher(),
        r.scheduledOrigin(),
        r.graceRule(),
        a,
        r.wakeFloor());
  }

  /** {@code r} with {@code w} for the machine's wake floor. */
  static RunStrategies withWakeFloor(RunStrategies r, WakeFloorProbe w) {
    return new RunStrategies(
        r.dueRule(),
        r.sendClock(),
        r.okMatcher(),
        r.scheduledOrigin(),
        r.graceRule(),
        r.authResponder(),
        w);
  }
}
