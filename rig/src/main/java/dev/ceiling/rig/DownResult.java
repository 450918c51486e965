package dev.ceiling.rig;

import java.util.Objects;

/**
 * What {@link Rig#down} did.
 *
 * @param outcome what happened
 * @param pid the pid the pid file named, or null when there was none or it was unreadable
 * @param message one line for the operator, naming the state directory and the reason
 */
public record DownResult(Outcome outcome, Long pid, String message) {
  public DownResult {
    Objects.requireNonNull(outcome, "outcome must not be null");
    Objects.requireNonNull(message, "message must not be null");
  }

  /** Every way a down can end. Only STOPPED and KILLED sent a signal. */
  public enum Outcome {
    /** No pid file: nothing this rig started is recorded; nothing signalled. */
    NO_PID_FILE,
    /** The rig attached to a relay it does not own; nothing signalled. */
    ATTACHED,
    /**
     * The pid file could not be read, the descriptor named the relay, and it is not running (and no
     * process carries the rig id); files removed, nothing signalled.
     */
    GARBLED,
    /**
     * The pid file could not be read and the relay could not be found or proven ours (no readable
     * descriptor, or a process carries the rig id but not the recorded pid and start instant):
     * nothing signalled, every file kept.
     */
    UNRESOLVED,
    /** No process has the recorded pid; file removed, nothing signalled. */
    STALE_DEAD,
    /**
     * A process has the pid but a different start instant or command line: it is not ours. File
     * removed, nothing signalled.
     */
    STALE_NOT_OURS,
    /** Our relay exited after SIGTERM. */
    STOPPED,
    /** Our relay ignored SIGTERM for the stop timeout and was SIGKILLed. */
    KILLED,
    /** Our relay survived SIGKILL's wait too; the pid file is kept. */
    STILL_ALIVE
  }

  /**
   * True when nothing is left running that this rig started, as far as the rig can tell: every
   * outcome but STILL_ALIVE and UNRESOLVED.
   */
  public boolean clean() {
    return outcome != Outcome.STILL_ALIVE && outcome != Outcome.UNRESOLVED;
  }
}
