package dev.ceiling.rig;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.rig.internal.Ownership;
import dev.ceiling.rig.internal.PortGuard;
import dev.ceiling.rig.internal.ProcessInspector;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Stand-in relays (python3 fake_relay.py) and deliberately broken lifecycles for the tests. */
final class Fakes {
  private Fakes() {}

  /**
   * The system python when there is one: a version-manager shim (pyenv) costs seconds per start on
   * a loaded machine, and these tests start many relays.
   */
  static String python() {
    return java.nio.file.Files.isExecutable(Path.of("/usr/bin/python3"))
        ? "/usr/bin/python3"
        : "python3";
  }

  static Path script() {
    try {
      return Path.of(Fakes.class.getResource("fake_relay.py").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A profile running the fake relay in {@code mode} on {@code port}. */
  static RelayProfile profile(String mode, int port) throws RigException {
    return ProfileReader.read(profileJson(mode, port), "fake-profile", null);
  }

  /** The fake profile's JSON text. */
  static String profileJson(String mode, int port) {
    return """
        {
          "name": "fake",
          "command": ["%s", "%s", "--port", "${port}", "--rig-id", "${rig_id}",
                      "--mode", "${mode}", "--exit-code", "7"],
          "ports": {"port": %d},
          "parameters": {"mode": "%s"},
          "health_url": "http://127.0.0.1:${port}/health",
          "metrics_url": "http://127.0.0.1:${port}/metrics",
          "ready_line_prefix": "READY ",
          "treatment_arm": "on",
          "control_arm": "off",
          "arms": {"on": {"args": ["--audit", "on"]}, "off": {"args": ["--audit", "off"]}},
          "reset": {"args": ["--reset"]},
          "limiter": [{"name": "limit", "value": "1000000", "args": ["--limit", "${value}"]}],
          "metric_mapping": {"audit_rows": "fake_audit_rows"},
          "targets": [{"community": "a", "url": "ws://127.0.0.1:${port}/",
                       "host_header": "a.localhost:${port}", "tags": [], "kind": 1,
                       "content_bytes": 64}],
          "queue_capacity": 10
        }
        """
        .formatted(python(), script(), port, mode);
  }

  static UpOptions options(RelayProfile p, Path stateDir) {
    return UpOptions.of(p, "on", stateDir)
        .withTimeouts(Duration.ofSeconds(10), Duration.ofMillis(300), Duration.ofSeconds(2));
  }

  static int freePort() {
    return FreePorts.one();
  }

  static Lifecycle real() {
    return Lifecycle.standard();
  }

  /** MUTANT: believes every live process with the recorded pid is its own. */
  static Lifecycle skipsOwnershipCheck() {
    Ownership trusting = (recorded, live) -> Optional.empty();
    return new Lifecycle(
        trusting,
        (ports, wait) -> PortGuard.awaitFree(ports, wait, Duration.ofMillis(50)),
        ReferenceRelayJar::locate);
  }

  /**
   * MUTANT: the old check, pid, start instant and argv only: it reads the recorded rig id into the
   * live environment, so a pid file copied from a stranger passes.
   */
  static Lifecycle trustsArgv() {
    Ownership argvOnly =
        (recorded, live) ->
            Ownership.STRICT.mismatch(
                recorded,
                new ProcessInspector.Identity(
                    live.pid(), live.startInstant(), live.command(), recorded.rigId()));
    return new Lifecycle(
        argvOnly,
        (ports, wait) -> PortGuard.awaitFree(ports, wait, Duration.ofMillis(50)),
        ReferenceRelayJar::locate);
  }

  /** MUTANT: never looks at the ports before starting. */
  static Lifecycle skipsPortCheck() {
    return new Lifecycle(
        Ownership.STRICT,
        (Map<String, Integer> ports, Duration wait) -> List.of(),
        ReferenceRelayJar::locate);
  }

  /**
   * MUTANT: checks only the sockets the relay's own process holds, not its children's: a worker
   * listening on every interface passes.
   */
  static Lifecycle checksTheRelaysOwnSocketsOnly() {
    return new Lifecycle(
        Ownership.STRICT,
        (ports, wait) -> PortGuard.awaitFree(ports, wait, Duration.ofMillis(50)),
        pid ->
            dev.ceiling.rig.internal.Listeners.offLoopback(List.of(pid)).stream()
                .map(dev.ceiling.rig.internal.Listeners.OffLoopback::describe)
                .toList(),
        ReferenceRelayJar::locate);
  }

  /** Kills a process this test started, by pid, and waits for it. */
  static void kill(long pid) {
    ProcessHandle.of(pid)
        .ifPresent(
            h -> {
              h.destroyForcibly();
              h.onExit().join();
            });
  }

  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
