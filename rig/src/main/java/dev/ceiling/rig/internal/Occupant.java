package dev.ceiling.rig.internal;

import dev.ceiling.core.model.RigDescriptor;
import java.util.Objects;
import java.util.Optional;

/**
 * What a state directory says runs there, decided once by {@link Occupants#look} so that {@code
 * up}, {@code down}, {@code down} of a garbled pid file and {@code status} act on one answer. Only
 * {@link Ours} (and {@link Garbled} with a matching process) may ever be signalled.
 */
public sealed interface Occupant
    permits Occupant.None, Occupant.Attached, Occupant.Garbled, Occupant.Stale, Occupant.Ours {

  /** No pid file and no descriptor of an attached relay: nothing recorded. */
  record None() implements Occupant {}

  /**
   * No pid file, and the descriptor names a relay someone else supervises: never signalled.
   *
   * @param descriptor the readable descriptor, whose {@code ownsRelay()} is false
   */
  record Attached(RigDescriptor descriptor) implements Occupant {
    public Attached {
      Objects.requireNonNull(descriptor, "descriptor must not be null");
    }
  }

  /**
   * The pid file exists but cannot be read.
   *
   * @param why the parse error
   * @param named what the pid file would have said, rebuilt from a descriptor of a relay this rig
   *     started; empty when nothing says which process was ours
   * @param ours the named process when it is alive, matches the record and carries the rig id;
   *     empty otherwise
   * @param notOurs why the named process is not ours, empty when {@code ours} is present or nothing
   *     is named
   */
  record Garbled(
      String why, Optional<PidFile> named, Optional<ProcessHandle> ours, Optional<String> notOurs)
      implements Occupant {
    public Garbled {
      Objects.requireNonNull(why, "why must not be null");
      Objects.requireNonNull(named, "named must not be null");
      Objects.requireNonNull(ours, "ours must not be null");
      Objects.requireNonNull(notOurs, "notOurs must not be null");
    }
  }

  /**
   * The pid file names a process that is not (or no longer) the relay this rig started.
   *
   * @param recorded the pid file
   * @param alive true when a process with the recorded pid runs, but is someone else
   * @param why what differs ("pid 12 is not running", "start instant differs: ...")
   */
  record Stale(PidFile recorded, boolean alive, String why) implements Occupant {
    public Stale {
      Objects.requireNonNull(recorded, "recorded must not be null");
      Objects.requireNonNull(why, "why must not be null");
    }
  }

  /**
   * The recorded process runs and pid, start instant and command line all match.
   *
   * @param recorded the pid file
   * @param handle the live process, taken once: the JDK binds it to the start time and refuses to
   *     signal a different process that later reuses the pid
   */
  record Ours(PidFile recorded, ProcessHandle handle) implements Occupant {
    public Ours {
      Objects.requireNonNull(recorded, "recorded must not be null");
      Objects.requireNonNull(handle, "handle must not be null");
    }
  }
}
