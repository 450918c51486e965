package dev.ceiling.rig;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The rig's lifecycle: bring a relay up in a known state, say where everything is, take it down
 * without ever touching a process that is not its own.
 *
 * <p>One relay per state directory. Files there: {@code relay.pid.json} (pid, start instant, exact
 * command line with the unique rig id), {@code descriptor.json}, {@code relay.log}, {@code data/}.
 * All owner-only. Thread-safe as long as two callers do not share a state directory.
 */
public final class Rig {
  private static final Lifecycle STANDARD = Lifecycle.standard();

  private Rig() {}

  /**
   * Starts (or with skipRelay attaches to) the relay, waits until it is ready and writes the pid
   * file and descriptor.
   *
   * @throws RigException BAD_INPUT for options the profile cannot satisfy; PORT_IN_USE naming the
   *     port and its listener after waiting {@link UpOptions#portWait()}; START_FAILED with the
   *     process's exit code or "still alive" and the tail of its log (a started relay that does not
   *     become ready is stopped before this is thrown); ATTACH_FAILED; STATE when the state
   *     directory already runs a relay of ours
   */
  public static RigHandle up(UpOptions options) throws RigException {
    return STANDARD.up(options);
  }

  /**
   * Stops what this rig started in {@code stateDir}: only after the live process with the recorded
   * pid shows the recorded start instant and command line. A stale or garbled pid file is reported
   * and removed, and nothing is signalled. Never throws for a missing or bad pid file.
   *
   * @param stopTimeout how long to wait after SIGTERM before SIGKILL
   */
  public static DownResult down(Path stateDir, Duration stopTimeout) {
    return STANDARD.down(stateDir, stopTimeout);
  }

  /** {@link #down(Path, Duration)} with {@link UpOptions#DEFAULT_STOP_TIMEOUT}. */
  public static DownResult down(Path stateDir) {
    return down(stateDir, UpOptions.DEFAULT_STOP_TIMEOUT);
  }

  /** What runs in {@code stateDir}, whether it is ours, its ports and health. Read-only. */
  public static StatusResult status(Path stateDir) {
    return STANDARD.status(stateDir);
  }
}
