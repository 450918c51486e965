package dev.ceiling.experiment;

import dev.ceiling.rig.DownResult;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What Ctrl-C reaches in a running round, whichever design it is: the request that no new arm, link
 * or cell starts, the loop that is running (a sweep's, reached through its interrupt) and the relay
 * that is up. One signal is shared by a round and the rounds it runs (a contrast's second arm, a
 * sweep per link), so a request reaches whichever runs and every loop above it sees it.
 * Thread-safe: the shutdown hook calls {@link #request()} and {@link #stopRig()} while the round's
 * thread runs.
 */
final class StopSignal {
  /**
   * A flag, not only the running loop's interrupt, because Ctrl-C can arrive before a loop exists
   * (during a rig start) or between two arms or links.
   */
  private final AtomicBoolean requested = new AtomicBoolean();

  private final AtomicReference<Runnable> running = new AtomicReference<>();
  private final AtomicReference<RigControl.Running> rig = new AtomicReference<>();

  /** Stops the running loop after its cell, or the next one before any cell. */
  void request() {
    requested.set(true);
    Runnable r = running.get();
    if (r != null) {
      r.run();
    }
  }

  boolean requested() {
    return requested.get();
  }

  /**
   * Registers the interrupt of the loop about to run. Set before checking the flag: either this
   * sees the request or {@link #request()} sees this loop, so a Ctrl-C during the rig start stops
   * the loop before its first cell.
   */
  void running(Runnable interrupt) {
    running.set(interrupt);
    if (requested.get()) {
      interrupt.run();
    }
  }

  void ended() {
    running.set(null);
  }

  void rigUp(RigControl.Running r) {
    rig.set(r);
  }

  /** The arm's teardown: stops the relay that is up and forgets it; null when none is up. */
  DownResult takeRigDown() {
    RigControl.Running r = rig.getAndSet(null);
    return r == null ? null : r.stop();
  }

  /** The shutdown hook's last resort: the relay that is still up is stopped, whatever happened. */
  void stopRig() {
    RigControl.Running r = rig.get();
    if (r != null) {
      r.stop();
    }
  }
}
