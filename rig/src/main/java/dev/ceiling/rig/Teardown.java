package dev.ceiling.rig;

import dev.ceiling.rig.internal.Occupant;
import dev.ceiling.rig.internal.Occupants;
import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.ProcessInspector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** {@code down}: what each {@link Occupant} means for stopping, and the message that says so. */
final class Teardown {
  private final Occupants occupants;

  Teardown(Occupants occupants) {
    this.occupants = occupants;
  }

  DownResult down(Path stateDir, Duration stopTimeout) {
    Occupant o = occupants.look(stateDir);
    if (o instanceof Occupant.Ours ours) {
      return Stopper.stop(stateDir, ours.handle(), ours.recorded().pid(), stopTimeout);
    }
    if (o instanceof Occupant.Stale stale) {
      return stale(stateDir, stale);
    }
    if (o instanceof Occupant.Garbled garbled) {
      return garbled(stateDir, garbled, stopTimeout);
    }
    if (o instanceof Occupant.Attached attached) {
      Stopper.forget(stateDir);
      return new DownResult(
          DownResult.Outcome.ATTACHED,
          null,
          "attached to a relay this rig did not start ("
              + attached.descriptor().healthUrl()
              + "); nothing signalled, descriptor removed");
    }
    return new DownResult(
        DownResult.Outcome.NO_PID_FILE, null, "no pid file in " + stateDir + "; nothing to stop");
  }

  private static DownResult stale(Path stateDir, Occupant.Stale stale) {
    Stopper.forget(stateDir);
    long pid = stale.recorded().pid();
    if (!stale.alive()) {
      return new DownResult(
          DownResult.Outcome.STALE_DEAD,
          pid,
          "stale pid file: pid " + pid + " is not running; removed it, signalled nothing");
    }
    return new DownResult(
        DownResult.Outcome.STALE_NOT_OURS,
        pid,
        "stale pid file: pid "
            + pid
            + " is not the relay this rig started ("
            + stale.why()
            + "); removed it, signalled nothing");
  }

  /**
   * The pid file is unreadable. Without a descriptor that names the relay nothing is signalled and
   * nothing removed (the files are the only trace of it). With one, a matching process is stopped;
   * a process elsewhere carrying the rig id means the record is wrong, so every file is kept.
   */
  private static DownResult garbled(Path stateDir, Occupant.Garbled g, Duration stopTimeout) {
    Path pf = PidFile.in(stateDir);
    if (g.named().isEmpty()) {
      return new DownResult(
          DownResult.Outcome.UNRESOLVED,
          null,
          "pid file unreadable ("
              + g.why()
              + ") and no readable descriptor in "
              + stateDir
              + " names this rig's relay; signalled nothing and kept every file. Look for a"
              + " process whose command line carries 'ceiling-rig-' and this directory, stop it,"
              + " then remove "
              + pf);
    }
    PidFile rec = g.named().get();
    String prefix =
        "pid file unreadable (" + g.why() + "); the descriptor names rig " + rec.rigId();
    if (g.ours().isPresent()) {
      DownResult r = Stopper.stop(stateDir, g.ours().get(), rec.pid(), stopTimeout);
      return new DownResult(r.outcome(), r.pid(), prefix + ": " + r.message());
    }
    String notOurs = g.notOurs().orElse("its command line lacks the rig id");
    List<Long> carriers = carryingRigId(rec.rigId());
    if (!carriers.isEmpty()) {
      return new DownResult(
          DownResult.Outcome.UNRESOLVED,
          rec.pid(),
          prefix
              + " with pid "
              + rec.pid()
              + " ("
              + notOurs
              + "), but pid(s) "
              + carriers
              + " carry that rig id: signalled nothing and kept every file; stop them by hand");
    }
    Stopper.forget(stateDir);
    return new DownResult(
        DownResult.Outcome.GARBLED,
        null,
        prefix
            + ", whose relay is not running ("
            + notOurs
            + ") and no process carries that rig id; removed the files, signalled nothing");
  }

  /** Live processes whose command line carries the rig id, this JVM excluded. */
  private static List<Long> carryingRigId(String rigId) {
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .filter(pid -> pid != self)
        .filter(
            pid ->
                ProcessInspector.commandLine(pid)
                    .map(c -> c.stream().anyMatch(a -> a.contains(rigId)))
                    .orElse(false))
        .toList();
  }
}
