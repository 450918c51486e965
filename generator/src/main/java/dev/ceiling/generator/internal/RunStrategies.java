package dev.ceiling.generator.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The rules a run is made of, each one a strategy the engine needs anyway: where due times come
 * from, where a batch's send instant comes from, how an OK finds its slot, where "scheduled"
 * latency starts, when the grace period is over, and how an AUTH challenge is answered. Production
 * runs use {@link #PRODUCTION}; tests swap one rule for a mutant (a slowed sender, a FIFO matcher,
 * a sender that times from the send) that the real generator must be told apart from. None is
 * called per slot: the send path calls {@link SendClock} once per batch, in place of the {@code
 * nanoTime()} it needs for the send instant; the wake floor is read once, before the clock.
 *
 * @param dueRule each slot's due time; production: the schedule
 * @param sendClock the send instant of a batch about to be handed to Jetty
 * @param okMatcher the slot an OK answers
 * @param scheduledOrigin where a slot's "scheduled" latency starts
 * @param graceRule whether the grace period may end before its deadline
 * @param authResponder what a connection does with a NIP-42 AUTH challenge
 * @param wakeFloor how the machine's wake floor is measured before the clock
 */
public record RunStrategies(
    SlotPlanner.DueRule dueRule,
    SendClock sendClock,
    OkMatcher okMatcher,
    ScheduledOrigin scheduledOrigin,
    GraceRule graceRule,
    AuthResponder authResponder,
    WakeFloorProbe wakeFloor) {

  /** Where the send instant of a batch of {@code slots} slots on {@code conn} comes from. */
  public interface SendClock {
    /** Production: {@code System.nanoTime()}; a slot is sent late and counted if past deadline. */
    long sendInstantNanos(Conn conn, int slots);
  }

  /** Which slot of {@code target} an OK for event {@code id} answers; null when none. */
  public interface OkMatcher {
    /** Called with the target's lock held. */
    Integer slotOf(TargetRun target, String id);
  }

  /** The instant a slot's "scheduled" latency is measured from. */
  public interface ScheduledOrigin {
    long originNanos(long dueNanos, long sentAtNanos);
  }

  /** True ends the grace period before its deadline. */
  public interface GraceRule {
    boolean over(long answered, long sent, List<TargetRun> targets);
  }

  /** Handles one AUTH challenge on {@code conn}. */
  public interface AuthResponder {
    void onChallenge(Conn conn, String challenge);
  }

  /** The machine's wake floor, measured once before the clock. */
  public interface WakeFloorProbe {
    /**
     * The p99 lateness of the senders' wait over about {@code probe}, µs, or null when unknown.
     * Production: {@link WakeFloor#measureP99Us}; a test can simulate a slow machine.
     */
    Long p99Us(Duration probe);
  }

  /**
   * The real generator: the schedule, {@code nanoTime()} at hand-off, OKs matched by event id,
   * latency from the intended slot, grace over once every sent event is answered, AUTH answered.
   */
  public static final RunStrategies PRODUCTION =
      new RunStrategies(
          SlotPlanner.SCHEDULE,
          (conn, slots) -> System.nanoTime(),
          (target, id) -> target.slotById.get(id),
          (due, sentAt) -> due,
          (answered, sent, targets) -> answered >= sent,
          Conn::answerAuth,
          WakeFloor::measureP99Us);

  public RunStrategies {
    // A missing rule would fail deep in a sender or receive thread; fail here instead.
    Object[] rules = {
      dueRule, sendClock, okMatcher, scheduledOrigin, graceRule, authResponder, wakeFloor
    };
    for (Object rule : rules) {
      Objects.requireNonNull(rule, "every rule of a run must be set, got " + Arrays.asList(rules));
    }
  }
}
