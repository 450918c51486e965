package dev.ceiling.generator.internal;

/**
 * Test seams into the send path. Production runs use {@link #NONE}; tests use them to build the
 * mutants the real generator must be told apart from (a slowed sender, a generator that waits for
 * responses, one that times only from the send).
 */
public interface Hooks {
  Hooks NONE = new Hooks() {};

  /** Called on the sender thread just before a slot goes on the wire. */
  default void beforeSend(Conn conn) {}

  /** True makes "scheduled" latency start at the send instead of the intended slot. */
  default boolean scheduledFromSend() {
    return false;
  }
}
