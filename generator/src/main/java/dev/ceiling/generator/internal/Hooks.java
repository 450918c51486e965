package dev.ceiling.generator.internal;

import java.util.List;

/**
 * Test seams into the send path. Production runs use {@link #NONE}; tests use them to build the
 * mutants the real generator must be told apart from (a slowed sender, a generator that waits for
 * responses, one that times only from the send).
 */
public interface Hooks {
  Hooks NONE = new Hooks() {};

  /**
   * Called on the sender thread once per slot, just before the batch holding it is handed to Jetty
   * (all of a batch's calls come before its send instant is taken).
   */
  default void beforeSend(Conn conn) {}

  /** True makes "scheduled" latency start at the send instead of the intended slot. */
  default boolean scheduledFromSend() {
    return false;
  }

  /** False matches each OK to the oldest unanswered event, ignoring its id. */
  default boolean matchOksById() {
    return true;
  }

  /**
   * True ends the grace period before its deadline. The default: once every sent event is answered.
   * A test whose relay leaves events unanswered on purpose ends it on the OK frames it expects
   * instead, so it needs neither a long fixed wait nor a short, racy one.
   */
  default boolean graceOver(long answered, long sent, List<TargetRun> targets) {
    return answered >= sent;
  }

  /** Where due times come from; a mutant rebases them on the previous send. */
  default SlotPlanner.DueRule dueRule() {
    return SlotPlanner.SCHEDULE;
  }

  /**
   * False checks the send deadline only when a pass starts, so a batch held past it (by a slow
   * {@link #beforeSend}) is still sent and counted as sent: the mutant of the late-batch test.
   */
  default boolean checkDeadlineAtHandOff() {
    return true;
  }

  /** False ignores NIP-42 AUTH challenges. */
  default boolean answerAuth() {
    return true;
  }
}
