package dev.ceiling.rig;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.ceiling.rig.internal.Listeners;
import dev.ceiling.rig.internal.OwnerOnlyFiles;
import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.PortGuard;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import dev.ceiling.rig.internal.ReadinessWait;
import dev.ceiling.rig.internal.RelayProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts the planned relay and waits until it is ready, in named steps: ports free, state prepared,
 * spawned, exec'd (running), pid file written, ready. A failure after the spawn stops the relay
 * (through the same ownership check as {@code down}) and carries its exit code or "still alive" and
 * the log tail.
 */
final class Launcher {
  private static final Duration EXEC_WAIT = Duration.ofSeconds(5);

  /** Which ports are still busy after waiting; the real one binds each port. */
  @FunctionalInterface
  interface PortCheck {
    List<Map.Entry<String, Integer>> busyAfter(Map<String, Integer> ports, Duration wait)
        throws InterruptedException;
  }

  /**
   * The sockets a started relay's process tree listens on off loopback, each described with its
   * address and pid; the real one reads the OS's tables ({@link Listeners}).
   */
  @FunctionalInterface
  interface ListenerCheck {
    List<String> offLoopback(long relayPid);
  }

  /** Every socket of the relay's process tree, from /proc. */
  static final ListenerCheck WHOLE_TREE =
      pid -> Listeners.offLoopback(pid).stream().map(Listeners.OffLoopback::describe).toList();

  private final PortCheck portCheck;
  private final ListenerCheck listenerCheck;
  private final Teardown teardown;

  Launcher(PortCheck portCheck, ListenerCheck listenerCheck, Teardown teardown) {
    this.portCheck = portCheck;
    this.listenerCheck = listenerCheck;
    this.teardown = teardown;
  }

  /** The started, ready relay's identity as the pid file records it. */
  Identity launch(LaunchPlan plan, UpOptions o) throws RigException {
    String waitingFor = "ports to be free";
    try {
      requirePortsFree(plan, o);
      prepare(plan, o.reset());
      RelayProcess relay =
          RelayProcess.spawn(
              plan.command(), plan.environment(), plan.workingDirectory(), plan.log());
      waitingFor = "the relay's exec";
      Identity id = relay.awaitExec(EXEC_WAIT);
      writePidFile(plan, o.profile().name(), id, relay);
      waitingFor = "readiness";
      awaitReady(plan, o, relay, id);
      requireLoopbackListeners(plan, o, id);
      return id;
    } catch (InterruptedException e) {
      // Stop first, with the flag clear so the stop may wait; then hand the interrupt on.
      String after = stopIfRecorded(plan, o);
      Thread.currentThread().interrupt();
      throw new RigException(
          RigException.Kind.START_FAILED,
          "interrupted while waiting for "
              + waitingFor
              + " of "
              + o.profile().name()
              + "; "
              + after,
          e);
    }
  }

  /** {@code --skip-relay}: someone else's relay must already answer; no pid file, no signal. */
  static void attach(LaunchPlan plan, UpOptions o) throws RigException {
    ReadinessWait.Outcome outcome;
    try {
      outcome = ReadinessWait.await(plan.probe(), o.readyTimeout(), null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RigException(
          RigException.Kind.ATTACH_FAILED,
          "interrupted while waiting for " + plan.probe().describe(),
          e);
    }
    if (outcome != ReadinessWait.Outcome.READY) {
      throw new RigException(
          RigException.Kind.ATTACH_FAILED,
          "--skip-relay needs a relay that is already up: expected "
              + plan.probe().describe()
              + " within "
              + o.readyTimeout()
              + ", but it did not");
    }
    Stopper.deleteQuietly(PidFile.in(plan.stateDir()));
  }

  private void requirePortsFree(LaunchPlan plan, UpOptions o)
      throws RigException, InterruptedException {
    List<Map.Entry<String, Integer>> busy = portCheck.busyAfter(plan.ports(), o.portWait());
    if (busy.isEmpty()) {
      return;
    }
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Integer> b : busy) {
      problems.add(
          "port "
              + b.getKey()
              + "="
              + b.getValue()
              + " is in use on 127.0.0.1 after waiting "
              + o.portWait()
              + " (listener: "
              + PortGuard.describeListener(b.getValue())
              + ")");
    }
    throw new RigException(
        RigException.Kind.PORT_IN_USE,
        "refusing to start " + o.profile().name() + ": " + String.join("; ", problems),
        problems,
        null);
  }

  private static void prepare(LaunchPlan plan, boolean reset) throws RigException {
    try {
      if (reset && Files.exists(plan.dataDir())) {
        // Links are deleted, never followed, either way; ALLOW_INSECURE only lets a file system
        // without secure directory streams (macOS) reset at all, as the hand-written walk did.
        MoreFiles.deleteRecursively(plan.dataDir(), RecursiveDeleteOption.ALLOW_INSECURE);
      }
      OwnerOnlyFiles.directory(plan.dataDir());
      RelayProcess.freshLog(plan.log());
    } catch (IOException e) {
      throw new RigException(
          RigException.Kind.STATE, "cannot prepare " + plan.stateDir() + ": " + e, e);
    }
  }

  private static void writePidFile(LaunchPlan plan, String profile, Identity id, RelayProcess relay)
      throws RigException {
    PidFile pf =
        new PidFile(
            1,
            plan.rigId(),
            profile,
            id.pid(),
            id.startInstant(),
            id.command(),
            plan.ports(),
            plan.probe().serialized(),
            plan.log().toString());
    try {
      pf.write(PidFile.in(plan.stateDir()));
    } catch (IOException e) {
      relay.process().destroyForcibly();
      throw new RigException(
          RigException.Kind.STATE, "cannot write pid file in " + plan.stateDir() + ": " + e, e);
    }
  }

  /**
   * Ready counts only if our process is still alive afterwards: a relay that failed to bind can die
   * while someone else's listener answers the probe.
   */
  private void awaitReady(LaunchPlan plan, UpOptions o, RelayProcess relay, Identity id)
      throws RigException, InterruptedException {
    Process process = relay.process();
    ReadinessWait.Outcome outcome = ReadinessWait.await(plan.probe(), o.readyTimeout(), process);
    if (outcome == ReadinessWait.Outcome.READY && process.isAlive()) {
      return;
    }
    String state;
    if (process.isAlive()) {
      DownResult stopped = teardown.down(plan.stateDir(), o.stopTimeout());
      state = "it was still alive and has been stopped (" + stopped.outcome() + ")";
    } else {
      state = "it exited with code " + process.exitValue();
      teardown.down(plan.stateDir(), o.stopTimeout());
    }
    throw new RigException(
        RigException.Kind.START_FAILED,
        "relay "
            + o.profile().name()
            + " (pid "
            + id.pid()
            + ") did not become ready: expected "
            + plan.probe().describe()
            + " within "
            + o.readyTimeout()
            + "; "
            + state
            + ". "
            + relay.tailBlock());
  }

  /**
   * Once ready, every socket the relay's process tree listens on must be on loopback, not only the
   * one the probe asked: a relay that also listens on every interface (nostream's {@code
   * listen(port)}, a debug port, a worker's admin socket) is stopped and refused, naming each
   * address. Checked once the relay is ready, since that is when it has opened what it serves on.
   */
  private void requireLoopbackListeners(LaunchPlan plan, UpOptions o, Identity id)
      throws RigException {
    List<String> off = listenerCheck.offLoopback(id.pid());
    if (off.isEmpty()) {
      return;
    }
    DownResult stopped = teardown.down(plan.stateDir(), o.stopTimeout());
    List<String> problems = new ArrayList<>();
    for (String s : off) {
      problems.add("listens off loopback on " + s);
    }
    throw new RigException(
        RigException.Kind.START_FAILED,
        "relay "
            + o.profile().name()
            + " (pid "
            + id.pid()
            + ") "
            + String.join(", ", problems)
            + ": the rig runs a relay only on loopback (127.0.0.0/8 or ::1), so it has been stopped ("
            + stopped.outcome()
            + "); bind every listener of the relay and its workers to 127.0.0.1",
        problems,
        null);
  }

  /** After an interrupt: stop what the pid file names, so a Ctrl-C leaves no relay behind. */
  private String stopIfRecorded(LaunchPlan plan, UpOptions o) {
    if (!Files.exists(PidFile.in(plan.stateDir()))) {
      return "no pid file was written yet (a spawned relay is killed through its own handle)";
    }
    DownResult r = teardown.down(plan.stateDir(), o.stopTimeout());
    return "the relay was stopped (" + r.outcome() + ")";
  }
}
