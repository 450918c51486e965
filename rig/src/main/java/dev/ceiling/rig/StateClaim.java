package dev.ceiling.rig;

import dev.ceiling.rig.internal.Occupant;
import dev.ceiling.rig.internal.Occupants;
import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.StateDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The first step of a start: the state directory is this rig's to use, and no relay of this rig
 * runs there. A stale pid file is removed with a note; anything that might still run is refused.
 */
final class StateClaim {
  private StateClaim() {}

  static void claim(Path stateDir) throws RigException {
    Optional<String> foreign;
    try {
      foreign = StateDirectory.claim(stateDir);
    } catch (IOException e) {
      throw new RigException(
          RigException.Kind.STATE, "cannot create state directory " + stateDir + ": " + e, e);
    }
    if (foreign.isPresent()) {
      throw new RigException(RigException.Kind.STATE, foreign.get());
    }
  }

  /**
   * One relay per state directory. A garbled pid file is refused rather than deleted: it may be the
   * only trace of a relay that still runs (and holds the port); {@code down} settles it.
   */
  static void refuseIfRunning(Occupants occupants, Path stateDir, List<String> notes)
      throws RigException {
    Occupant o = occupants.look(stateDir);
    if (o instanceof Occupant.Ours ours) {
      throw new RigException(
          RigException.Kind.STATE,
          "a relay of this rig is already running in "
              + stateDir
              + " (pid "
              + ours.recorded().pid()
              + ", rig id "
              + ours.recorded().rigId()
              + "); run down first or use another state directory");
    }
    if (o instanceof Occupant.Garbled g) {
      throw new RigException(
          RigException.Kind.STATE,
          "the pid file in "
              + stateDir
              + " is unreadable ("
              + g.why()
              + "), so a relay this rig started may still be running; run 'ceiling rig down"
              + " --state-dir "
              + stateDir
              + "' first (it finds the relay through the descriptor, or refuses and keeps every"
              + " file)");
    }
    if (o instanceof Occupant.Stale stale) {
      notes.add(
          "removed a stale pid file naming pid "
              + stale.recorded().pid()
              + (stale.alive() ? " (now a process that is not ours)" : " (no longer running)"));
      Stopper.deleteQuietly(PidFile.in(stateDir));
    }
  }
}
