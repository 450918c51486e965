package dev.ceiling.rig;

import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.StateDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stops a relay already proven ours: SIGTERM, then SIGKILL after the stop timeout, and the pid file
 * and descriptor go only once the relay is gone (a survivor keeps its pid file, so a later {@code
 * down} can still find it).
 */
final class Stopper {
  private static final Duration KILL_WAIT = Duration.ofSeconds(5);

  private Stopper() {}

  static DownResult stop(Path stateDir, ProcessHandle h, long pid, Duration stopTimeout) {
    h.destroy();
    if (waitExit(h, stopTimeout)) {
      forget(stateDir);
      return new DownResult(
          DownResult.Outcome.STOPPED, pid, "stopped relay pid " + pid + " (SIGTERM)");
    }
    h.destroyForcibly();
    if (waitExit(h, KILL_WAIT)) {
      forget(stateDir);
      return new DownResult(
          DownResult.Outcome.KILLED,
          pid,
          "relay pid " + pid + " ignored SIGTERM for " + stopTimeout + "; killed it (SIGKILL)");
    }
    return new DownResult(
        DownResult.Outcome.STILL_ALIVE,
        pid,
        "relay pid " + pid + " survived SIGKILL for " + KILL_WAIT + "; pid file kept");
  }

  /** Removes the pid file and the descriptor: the record of a relay that is gone. */
  static void forget(Path stateDir) {
    deleteQuietly(PidFile.in(stateDir));
    deleteQuietly(stateDir.resolve(StateDirectory.DESCRIPTOR_FILE));
  }

  static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // Best effort: a leftover file is reported as stale on the next run.
    }
  }

  /**
   * True once the process is gone. An interrupt (a second Ctrl-C) ends the wait at once and keeps
   * the flag, so the caller's stop escalates immediately instead of waiting out the timeout.
   */
  private static boolean waitExit(ProcessHandle h, Duration timeout) {
    try {
      h.onExit().get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return !h.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !h.isAlive();
    }
  }
}
