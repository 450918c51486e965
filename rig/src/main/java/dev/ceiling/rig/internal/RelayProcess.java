package dev.ceiling.rig.internal;

import dev.ceiling.rig.RigException;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The relay as a process: started under setsid with its output in the log, and "is it running"
 * answered by {@link #awaitExec}, which proves the pid runs the relay's own arguments. Knows
 * nothing of readiness.
 */
public final class RelayProcess {
  private static final Duration POLL = Duration.ofMillis(50);
  private static final int LOG_TAIL_LINES = 20;

  private final Process process;
  private final List<String> command;
  private final Path log;

  private RelayProcess(Process process, List<String> command, Path log) {
    this.process = process;
    this.command = command;
    this.log = log;
  }

  /**
   * Starts {@code setsid <command>} in {@code workDir}, stdout and stderr appended to {@code log}
   * (which {@link #freshLog} prepared), stdin from /dev/null.
   *
   * @throws RigException START_FAILED when the program cannot be launched
   */
  public static RelayProcess spawn(
      List<String> command, Map<String, String> env, Path workDir, Path log) throws RigException {
    List<String> launch = new ArrayList<>();
    // setsid gives the relay its own session and process group, so a terminal's SIGINT/SIGHUP to
    // the CLI does not reach it. A ProcessBuilder child is never a group leader, so setsid(1)
    // calls setsid() and execs in place: the pid we get is the relay's (awaitExec verifies it).
    setsid().ifPresent(s -> launch.add(s.toString()));
    launch.addAll(command);
    ProcessBuilder pb =
        new ProcessBuilder(launch)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().putAll(env);
    try {
      return new RelayProcess(pb.start(), List.copyOf(command), log);
    } catch (IOException e) {
      throw new RigException(
          RigException.Kind.START_FAILED, "cannot launch " + launch + ": " + e.getMessage(), e);
    }
  }

  /**
   * Empties {@code log}, keeping the previous run's one generation back: it may say why it died.
   */
  public static void freshLog(Path log) throws IOException {
    if (Files.exists(log)) {
      Files.move(
          log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    }
    OwnerOnlyFiles.emptyFile(log);
  }

  /**
   * Waits until the pid shows the relay's argv (setsid has exec'd), then reads its identity.
   *
   * @throws RigException START_FAILED when the relay exits, never shows its arguments within {@code
   *     wait} (it is then killed), or the OS does not report its start instant
   * @throws InterruptedException at once when interrupted; the process is killed first, since
   *     nothing proven ours could stop it later
   */
  public Identity awaitExec(Duration wait) throws RigException, InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    List<String> seen = null;
    while (System.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        throw new RigException(
            RigException.Kind.START_FAILED,
            "relay exited during startup with code "
                + process.exitValue()
                + " (pid "
                + process.pid()
                + "). "
                + tailBlock());
      }
      Optional<Identity> id = ProcessInspector.identify(process.pid());
      if (id.isPresent() && isExecd(command, id.get().command())) {
        return requireStartInstant(id.get());
      }
      seen = id.map(Identity::command).orElse(null);
      sleepKillingOnInterrupt();
    }
    process.destroyForcibly();
    throw new RigException(
        RigException.Kind.START_FAILED,
        "pid "
            + process.pid()
            + " never showed the relay's command line within "
            + wait
            + " (setsid forked instead of exec'ing?): expected "
            + command
            + ", saw "
            + seen
            + "; killed it");
  }

  private Identity requireStartInstant(Identity id) throws RigException {
    if (id.startInstant() == null) {
      process.destroyForcibly();
      throw new RigException(
          RigException.Kind.START_FAILED,
          "the OS does not report pid "
              + process.pid()
              + "'s start instant, so the rig could not prove ownership later; stopped it");
    }
    return id;
  }

  private void sleepKillingOnInterrupt() throws InterruptedException {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  /**
   * True once the pid runs the relay's own arguments. argv[0] may differ from what was launched: a
   * version-manager shim (pyenv, sdkman) execs the real binary under its full path. The arguments
   * after it must match exactly, and whatever the OS then shows is what the pid file records, since
   * that is what {@code down} will compare against.
   */
  public static boolean isExecd(List<String> launched, List<String> live) {
    return live != null
        && live.size() == launched.size()
        && live.subList(1, live.size()).equals(launched.subList(1, launched.size()));
  }

  /** The process as the JDK holds it: bound to this child, so signalling it cannot miss. */
  public Process process() {
    return process;
  }

  /** "Last lines of LOG:" and the tail, for a failure message. */
  public String tailBlock() {
    return "Last lines of " + log + ":\n" + LogTail.block(log, LOG_TAIL_LINES);
  }

  private static Optional<Path> setsid() {
    for (String c : List.of("/usr/bin/setsid", "/bin/setsid")) {
      Path p = Path.of(c);
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
