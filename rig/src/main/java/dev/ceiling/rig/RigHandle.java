package dev.ceiling.rig;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.proxy.DelayProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A relay the rig brought up (or attached to). {@link #close()} stops it if this rig started it
 * (verifying ownership first, like {@link Rig#down}); for an attached relay it only forgets the
 * descriptor. Either way it closes the upstream delay proxies. Idempotent; thread-safe.
 */
public final class RigHandle implements AutoCloseable {
  private final Lifecycle lifecycle;
  private final RigDescriptor descriptor;
  private final Path stateDir;
  private final Path descriptorFile;
  private final Duration stopTimeout;
  private final List<String> notes;
  private final Map<String, DelayProxy> proxies;
  private final Map<String, DelayControl> delayControls;
  private DownResult closed;

  RigHandle(
      Lifecycle lifecycle,
      RigDescriptor descriptor,
      Path stateDir,
      Path descriptorFile,
      Duration stopTimeout,
      List<String> notes,
      Map<String, DelayProxy> proxies,
      Map<String, DelayControl> delayControls) {
    this.lifecycle = lifecycle;
    this.descriptor = descriptor;
    this.stateDir = stateDir;
    this.descriptorFile = descriptorFile;
    this.stopTimeout = stopTimeout;
    this.notes = List.copyOf(notes);
    this.proxies = proxies;
    this.delayControls = delayControls;
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
   * The delay proxy on each upstream the profile declares, by name in declaration order; empty when
   * the profile declares none or they are linked directly ({@link UpOptions.UpstreamMode#DIRECT},
   * or an attached relay). Each starts at zero delay; set the delay and read the wire counters
   * while the relay runs. Closed by {@link #stop()}.
   */
  public Map<String, DelayProxy> proxies() {
    return proxies;
  }

  /**
   * The delay controls the profile declares (links whose delay the relay injects itself), by name
   * in declaration order; empty when it declares none. Each is at the relay's configured delay
   * until someone PUTs one.
   */
  public Map<String, DelayControl> delayControls() {
    return delayControls;
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
