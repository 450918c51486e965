package dev.ceiling.rig;

import com.google.common.collect.Maps;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ReadyLine;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.internal.Occupants;
import dev.ceiling.rig.internal.OwnerOnlyFiles;
import dev.ceiling.rig.internal.Ownership;
import dev.ceiling.rig.internal.PortGuard;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import dev.ceiling.rig.internal.ReadyLog;
import dev.ceiling.rig.internal.Secrets;
import dev.ceiling.rig.internal.StateDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rig's start as a sequence of steps, each its own type: claim the state directory, settle who
 * runs there ({@link Occupants}), plan ({@link LaunchPlanner}), read the build's provenance, start
 * and wait until ready ({@link Launcher}) or attach, read the READY line, describe ({@link
 * Descriptors}); the upstream proxies open before the plan and close with the relay. Its checks are
 * injected, so tests can run deliberately broken (mutant) checks through the same code and show
 * that the real ones are what keeps strangers and busy ports safe.
 */
final class Lifecycle {
  /** How long stdout may trail readiness before the READY line counts as missing. */
  private static final Duration READY_LINE_WAIT = Duration.ofSeconds(2);

  private final Occupants occupants;
  private final LaunchPlanner planner;
  private final Teardown teardown;
  private final Launcher launcher;

  /**
   * The upstream proxies of each state directory whose relay this process started: they live in
   * this process, so whoever stops the relay here (a handle, or {@code down}) closes them too.
   */
  private final Map<Path, Upstreams> upstreams = new ConcurrentHashMap<>();

  Lifecycle(
      Ownership ownership, Launcher.PortCheck portCheck, LaunchPlanner.RelayJarSource relayJar) {
    this(ownership, portCheck, Launcher.WHOLE_TREE, relayJar);
  }

  Lifecycle(
      Ownership ownership,
      Launcher.PortCheck portCheck,
      Launcher.ListenerCheck listenerCheck,
      LaunchPlanner.RelayJarSource relayJar) {
    this.occupants = new Occupants(ownership);
    this.planner = new LaunchPlanner(relayJar);
    this.teardown = new Teardown(occupants);
    this.launcher = new Launcher(portCheck, listenerCheck, teardown);
  }

  static Lifecycle standard() {
    return new Lifecycle(
        Ownership.STRICT,
        (ports, wait) -> PortGuard.awaitFree(ports, wait, Duration.ofMillis(100)),
        ReferenceRelayJar::locate);
  }

  RigHandle up(UpOptions o) throws RigException {
    Path stateDir = o.stateDir().toAbsolutePath();
    List<String> notes = new ArrayList<>();
    StateClaim.claim(stateDir);
    StateClaim.refuseIfRunning(occupants, stateDir, notes);
    closeUpstreams(stateDir);
    List<UpstreamRoute> targets = UpstreamPlans.targets(o);
    boolean proxied = o.upstreamMode() == UpOptions.UpstreamMode.PROXIED && !o.skipRelay();
    Upstreams links = Upstreams.open(targets, proxied);
    try {
      RigHandle h = up(o, stateDir, links, notes);
      upstreams.put(stateDir, links);
      return h;
    } catch (RigException | RuntimeException e) {
      links.close();
      throw e;
    }
  }

  private RigHandle up(UpOptions o, Path stateDir, Upstreams links, List<String> notes)
      throws RigException {
    LaunchPlan plan = planner.plan(o, "ceiling-rig-" + UUID.randomUUID(), links.routes());
    Descriptors.Build build = Descriptors.Build.of(plan, o.profile());
    Identity relay = null;
    Optional<ReadyLine> ready = Optional.empty();
    if (o.skipRelay()) {
      Launcher.attach(plan, o);
    } else {
      relay = start(plan, o);
      ready = readyLine(plan, o, notes);
    }
    directNotes(links, notes);
    RigDescriptor d = Descriptors.build(plan, o, relay, ready, build, notes);
    Path file = stateDir.resolve(StateDirectory.DESCRIPTOR_FILE);
    try {
      OwnerOnlyFiles.write(file, Json.write(d));
    } catch (IOException e) {
      if (relay != null) {
        down(stateDir, o.stopTimeout());
      }
      throw new RigException(
          RigException.Kind.STATE, "cannot write descriptor " + file + ": " + e, e);
    }
    Map<String, DelayControl> controls =
        Maps.uniqueIndex(
            LaunchPlanner.delayControls(o.profile(), plan.placeholders(), plan.metricsUrl())
                .stream()
                .map(c -> LoopbackUrls.pin(c, d.metricsUrl(), notes))
                .toList(),
            DelayControl::name);
    return new RigHandle(
        this, d, stateDir, file, o.stopTimeout(), notes, links.proxies(), controls);
  }

  /** A direct link is worth a note: nothing on it is delayed or counted. */
  private static void directNotes(Upstreams links, List<String> notes) {
    for (UpstreamRoute r : links.routes()) {
      if (!r.proxied()) {
        notes.add(
            "upstream '"
                + r.name()
                + "' is linked directly to "
                + r.target()
                + ": no delay proxy, so no added delay and no wire count on it (a proxy lives"
                + " only as long as the process that owns it)");
      }
    }
  }

  /** Closes the proxies a previous {@code up} of this process left for {@code stateDir}. */
  private void closeUpstreams(Path stateDir) {
    Upstreams old = upstreams.remove(stateDir);
    if (old != null) {
      old.close();
    }
  }

  /** Launch messages quote the command line and the log, which may carry a secret. */
  private Identity start(LaunchPlan plan, UpOptions o) throws RigException {
    try {
      return launcher.launch(plan, o);
    } catch (RigException e) {
      String scrubbed = Secrets.scrub(e.getMessage(), o.profile().secretValues(o.overrides()));
      throw new RigException(e.kind(), scrubbed, e.problems(), e);
    }
  }

  private Optional<ReadyLine> readyLine(LaunchPlan plan, UpOptions o, List<String> notes)
      throws RigException {
    String prefix = o.profile().readyLinePrefix();
    if (prefix == null) {
      return Optional.empty();
    }
    Optional<ReadyLine> line;
    try {
      line = ReadyLog.await(plan.log(), prefix, READY_LINE_WAIT);
    } catch (InterruptedException e) {
      DownResult stopped = down(plan.stateDir(), o.stopTimeout());
      Thread.currentThread().interrupt();
      throw new RigException(
          RigException.Kind.START_FAILED,
          "interrupted while waiting for the READY line; the relay was stopped ("
              + stopped.outcome()
              + ")",
          e);
    }
    if (line.isEmpty()) {
      notes.add(
          "no log line starting with '"
              + prefix
              + "' in "
              + plan.log()
              + "; relay_info lacks the relay's own report");
    }
    return line;
  }

  /** Stops the relay, then closes the upstream proxies this process started for it. */
  DownResult down(Path stateDir, Duration stopTimeout) {
    Path dir = stateDir.toAbsolutePath();
    try {
      return teardown.down(dir, stopTimeout);
    } finally {
      closeUpstreams(dir);
    }
  }

  StatusResult status(Path stateDir) {
    return new StatusCheck(occupants).status(stateDir);
  }

  /** True when the recorded probe (health, WebSocket or tcp:// URL) answers; loopback only. */
  static boolean healthy(String probe) {
    return StatusCheck.healthy(probe);
  }
}
