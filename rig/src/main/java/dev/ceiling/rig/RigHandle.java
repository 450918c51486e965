package dev.ceiling.rig;

import dev.ceiling.core.model.RigDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A relay the rig brought up (or attached to). {@link #close()} stops it if this rig started it
 * (verifying ownership first, like {@link Rig#down}); for an attached relay it only forgets the
 * descriptor. Idempotent; thread-safe.
 */
public final class RigHandle implements AutoCloseable {
  private final Lifecycle lifecycle;
  private final RigDescriptor descriptor;
  private final Path stateDir;
  private final Path descriptorFile;
  private final Duration stopTimeout;
  private final List<String> notes;
  private DownResult closed;

  RigHandle(
      Lifecycle lifecycle,
      RigDescriptor descriptor,
      Path stateDir,
      Path descriptorFile,
      Duration stopTimeout,
      List<String> notes) {
    this.lifecycle = lifecycle;
    this.descriptor = descriptor;
    this.stateDir = stateDir;
    this.descriptorFile = descriptorFile;
    this.stopTimeout = stopTimeout;
    this.notes = List.copyOf(notes);
  }

  /** What was brought up; also written to {@link #descriptorFile()}. */
  public RigDescriptor descriptor() {
    return descriptor;
  }

  /** The descriptor's file ({@code <stateDir>/descriptor.json}, owner-only). */
  public Path descriptorFile() {
    return descriptorFile;
  }

  public Path stateDir() {
    return stateDir;
  }

  /** Things up noticed that did not stop it (a stale pid file removed, no READY line, ...). */
  public List<String> notes() {
    return notes;
  }

  /**
   * Stops the relay if this rig started it (SIGTERM, then SIGKILL after the stop timeout), only
   * after checking the live process is still ours. Returns the first call's result on every call.
   */
  public synchronized DownResult stop() {
    if (closed == null) {
      closed = lifecycle.down(stateDir, stopTimeout);
    }
    return closed;
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }
}
