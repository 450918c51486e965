package dev.ceiling.rig.internal;

import java.util.Optional;

/**
 * Decides whether a live process is the one a pid file recorded. The rig signals nothing unless
 * this says "ours". An interface so tests can run a deliberately wrong (mutant) check through the
 * same lifecycle and watch the stranger test catch it.
 */
@FunctionalInterface
public interface Ownership {
  /**
   * Why {@code live} is not the recorded process, or empty when it is.
   *
   * @param recorded what the pid file says
   * @param live what the OS says about the process with that pid now
   */
  Optional<String> mismatch(PidFile recorded, ProcessInspector.Identity live);

  /**
   * Pid, start instant and exact command line must all match, and the process's environment must
   * carry the recorded rig id (the rig sets it on every relay it launches); anything the OS will
   * not report is a mismatch. The first three a forged pid file can copy from any stranger; the
   * environment it cannot.
   */
  Ownership STRICT =
      (recorded, live) -> {
        if (live.pid() != recorded.pid()) {
          return Optional.of("pid differs: recorded " + recorded.pid() + ", live " + live.pid());
        }
        if (live.startInstant() == null) {
          return Optional.of("the OS does not report pid " + live.pid() + "'s start instant");
        }
        if (!live.startInstant().equals(recorded.startInstant())) {
          return Optional.of(
              "start instant differs: recorded "
                  + recorded.startInstant()
                  + ", live "
                  + live.startInstant());
        }
        if (live.command() == null) {
          return Optional.of("the OS does not report pid " + live.pid() + "'s command line");
        }
        if (!live.command().equals(recorded.command())) {
          return Optional.of(
              "command line differs: recorded " + recorded.command() + ", live " + live.command());
        }
        if (!recorded.rigId().equals(live.environmentRigId())) {
          return Optional.of(
              "its environment does not carry "
                  + ProcessInspector.RIG_ID_VARIABLE
                  + "="
                  + recorded.rigId()
                  + (live.environmentRigId() == null
                      ? " (unset or unreadable)"
                      : " (it has " + live.environmentRigId() + ")"));
        }
        return Optional.empty();
      };
}
