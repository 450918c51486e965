package dev.ceiling.rig;

import java.util.Map;
import java.util.Objects;

/**
 * What {@link Rig#status} found. Read-only: status never removes files or sends signals.
 *
 * @param state what runs and whether it is ours
 * @param pid the recorded pid, or null
 * @param ports the recorded ports by name (empty when unknown)
 * @param healthUrl the recorded health URL, or null
 * @param healthy true when the health URL answered 200, false when it did not, null when there was
 *     nothing to ask
 * @param message one line for the operator
 */
public record StatusResult(
    State state,
    Long pid,
    Map<String, Integer> ports,
    String healthUrl,
    Boolean healthy,
    String message) {
  public StatusResult {
    Objects.requireNonNull(state, "state must not be null");
    ports = Map.copyOf(Objects.requireNonNull(ports, "ports must not be null"));
    Objects.requireNonNull(message, "message must not be null");
  }

  /** What the state directory says about the relay. */
  public enum State {
    /** Nothing recorded. */
    NONE,
    /** Our relay is running (pid, start instant and command line match). */
    RUNNING_OURS,
    /** An attached relay someone else supervises. */
    ATTACHED,
    /** The pid file names a dead pid or a process that is not ours. */
    STALE,
    /** The pid file cannot be read. */
    GARBLED
  }
}
