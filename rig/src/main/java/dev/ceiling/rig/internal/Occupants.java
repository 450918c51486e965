package dev.ceiling.rig.internal;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a state directory and the live process it names, and says who runs there ({@link
 * Occupant}). The one place where "read the pid file, identify the process, compare" is written.
 * Reads only; never signals or deletes.
 */
public final class Occupants {
  private final Ownership ownership;

  public Occupants(Ownership ownership) {
    this.ownership = ownership;
  }

  /** Who runs in {@code stateDir}. */
  public Occupant look(Path stateDir) {
    Path pf = PidFile.in(stateDir);
    if (!Files.exists(pf)) {
      Optional<RigDescriptor> d = readDescriptor(stateDir);
      return d.isPresent() && !d.get().ownsRelay()
          ? new Occupant.Attached(d.get())
          : new Occupant.None();
    }
    PidFile rec;
    try {
      rec = PidFile.read(pf);
    } catch (ReportFormatException e) {
      return garbled(e.getMessage(), fromDescriptor(readDescriptor(stateDir)));
    }
    Optional<ProcessHandle> handle = ProcessHandle.of(rec.pid()).filter(ProcessHandle::isAlive);
    Optional<Identity> live = handle.flatMap(h -> ProcessInspector.identify(rec.pid()));
    if (live.isEmpty()) {
      return new Occupant.Stale(rec, false, "pid " + rec.pid() + " is not running");
    }
    Optional<String> mismatch = ownership.mismatch(rec, live.get());
    if (mismatch.isPresent()) {
      return new Occupant.Stale(rec, true, mismatch.get());
    }
    return new Occupant.Ours(rec, handle.get());
  }

  /**
   * A garbled pid file whose relay the descriptor names: the live process must match pid, start
   * instant and command line, and carry the rig id, to count as ours.
   */
  private Occupant garbled(String why, Optional<PidFile> named) {
    if (named.isEmpty()) {
      return new Occupant.Garbled(why, named, Optional.empty(), Optional.empty());
    }
    PidFile rec = named.get();
    Optional<ProcessHandle> handle = ProcessHandle.of(rec.pid()).filter(ProcessHandle::isAlive);
    Optional<Identity> live = handle.flatMap(h -> ProcessInspector.identify(rec.pid()));
    Optional<String> mismatch =
        live.isEmpty()
            ? Optional.of("pid " + rec.pid() + " is not running")
            : ownership.mismatch(rec, live.get());
    if (mismatch.isEmpty() && !live.get().command().contains(rec.rigId())) {
      mismatch = Optional.of("its command line lacks the rig id");
    }
    return mismatch.isEmpty()
        ? new Occupant.Garbled(why, named, handle, Optional.empty())
        : new Occupant.Garbled(why, named, Optional.empty(), mismatch);
  }

  /** The descriptor in {@code stateDir}, or empty when it is missing or unreadable. */
  public static Optional<RigDescriptor> readDescriptor(Path stateDir) {
    Path file = stateDir.resolve(StateDirectory.DESCRIPTOR_FILE);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Json.read(file, RigDescriptor.class));
    } catch (ReportFormatException e) {
      return Optional.empty();
    }
  }

  /** What the pid file would have said, rebuilt from a descriptor of a relay this rig started. */
  static Optional<PidFile> fromDescriptor(Optional<RigDescriptor> d) {
    if (d.isEmpty() || !d.get().ownsRelay() || d.get().relayCommand() == null) {
      return Optional.empty();
    }
    RigDescriptor x = d.get();
    try {
      return Optional.of(
          new PidFile(
              1,
              x.rigId(),
              x.profile(),
              x.relayPid(),
              x.relayStartInstant(),
              x.relayCommand(),
              Map.of(),
              x.healthUrl() == null ? "unknown" : x.healthUrl(),
              x.relayLog() == null ? "unknown" : x.relayLog()));
    } catch (IllegalArgumentException | NullPointerException e) {
      return Optional.empty();
    }
  }
}
