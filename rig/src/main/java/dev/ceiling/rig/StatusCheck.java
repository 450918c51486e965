package dev.ceiling.rig;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.rig.internal.Occupant;
import dev.ceiling.rig.internal.Occupants;
import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.Probe;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** {@code status}: what each {@link Occupant} means for the operator. Read-only. */
final class StatusCheck {
  private final Occupants occupants;

  StatusCheck(Occupants occupants) {
    this.occupants = occupants;
  }

  StatusResult status(Path stateDir) {
    Occupant o = occupants.look(stateDir);
    if (o instanceof Occupant.Ours ours) {
      PidFile rec = ours.recorded();
      boolean ok = healthy(rec.healthUrl());
      return new StatusResult(
          StatusResult.State.RUNNING_OURS,
          rec.pid(),
          rec.ports(),
          rec.healthUrl(),
          ok,
          "relay pid "
              + rec.pid()
              + " is ours (rig id "
              + rec.rigId()
              + "), ports "
              + rec.ports()
              + ", health "
              + (ok ? "200" : "not answering"));
    }
    if (o instanceof Occupant.Stale stale) {
      PidFile rec = stale.recorded();
      return new StatusResult(
          StatusResult.State.STALE,
          rec.pid(),
          rec.ports(),
          rec.healthUrl(),
          null,
          "stale pid file: " + stale.why());
    }
    if (o instanceof Occupant.Garbled garbled) {
      return new StatusResult(
          StatusResult.State.GARBLED,
          null,
          Map.of(),
          null,
          null,
          "pid file unreadable: " + garbled.why());
    }
    if (o instanceof Occupant.Attached attached) {
      return attached(attached.descriptor());
    }
    return new StatusResult(
        StatusResult.State.NONE, null, Map.of(), null, null, "no relay recorded in " + stateDir);
  }

  private static StatusResult attached(RigDescriptor d) {
    boolean ok = healthy(d.healthUrl() != null ? d.healthUrl() : d.targets().get(0).url());
    return new StatusResult(
        StatusResult.State.ATTACHED,
        null,
        Map.of(),
        d.healthUrl(),
        ok,
        "attached to a relay this rig did not start; health " + (ok ? "200" : "not answering"));
  }

  /**
   * True when the recorded probe answers now. A pid file or descriptor can be edited: anything but
   * loopback is never asked. An interrupt answers false and keeps the flag.
   */
  static boolean healthy(String recorded) {
    if (!Loopback.isLoopbackUrl(recorded)) {
      return false;
    }
    try {
      Optional<Probe> probe = Probe.parse(recorded);
      return probe.isPresent() && probe.get().answers();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
