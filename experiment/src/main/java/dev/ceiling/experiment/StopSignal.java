package dev.ceiling.experiment;

import dev.ceiling.rig.DownResult;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What Ctrl-C reaches in a running experiment: the request that no new arm or cell starts, the
 * sweep that is running and the relay that is up. Thread-safe: the shutdown hook calls {@link
 * #request()} and {@link #stopRig()} while the experiment's thread runs.
 */
final class StopSignal {
  /**
   * A flag, not only {@link ArmSweep#interrupt()}, because Ctrl-C can arrive before a sweep exists
   * (during a rig start) or between the arms.
   */
  private final AtomicBoolean requested = new AtomicBoolean();

  private final AtomicReference<ArmSweep> sweep = new AtomicReference<>();
  private final AtomicReference<RigControl.Running> rig = new AtomicReference<>();

  /** Stops the running sweep after its cell, or the next one before any cell. */
  void request() {
    requested.set(true);
    ArmSweep s = sweep.get();
    if (s != null) {
      s.interrupt();
    }
  }

  boolean requested() {
    return requested.get();
  }

  /**
   * Registers the sweep about to run. Set before checking the flag: either this sees the request or
   * {@link #request()} sees this sweep, so a Ctrl-C during the rig start stops the sweep before its
   * first cell.
   */
  void sweepStarting(ArmSweep s) {
    sweep.set(s);
    if (requested.get()) {
      s.interrupt();
    }
  }

  void sweepEnded() {
    sweep.set(null);
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
