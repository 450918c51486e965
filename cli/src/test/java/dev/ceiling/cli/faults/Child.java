package dev.ceiling.cli.faults;

import dev.ceiling.cli.Main;
import dev.ceiling.core.testing.ChildClasspath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The CLI as a real child JVM on this build's classes, with stdout and stderr in files, so a test
 * can signal it at a chosen moment. SIGINT is reset to its default disposition first ({@code env
 * --default-signal=INT}): a JVM that inherits SIGINT ignored (a build started in the background
 * without job control) never runs its Ctrl-C handling, and the test would then test nothing.
 */
final class Child {
  final Process process;
  final Path out;
  final Path err;

  private Child(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  static Child start(Path dir, String name, List<String> args) throws IOException {
    return start(dir, name, List.of(), args);
  }

  /** As {@link #start(Path, String, List)}, with {@code jvmOptions} given to the child's JVM. */
  static Child start(Path dir, String name, List<String> jvmOptions, List<String> args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT"));
    String relayJar = System.getProperty("ceiling.reference-relay.jar");
    List<String> jvm = new ArrayList<>(jvmOptions);
    if (relayJar != null) {
      jvm.add("-Dceiling.reference-relay.jar=" + relayJar);
    }
    cmd.addAll(ChildClasspath.command(Main.class.getName(), jvm, args));
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    if (relayJar != null) {
      pb.environment().put("CEILING_REFERENCE_RELAY_JAR", relayJar);
    }
    return new Child(pb.start(), out, err);
  }

  /** Sends a real SIGINT, as a terminal's Ctrl-C does. */
  void interrupt() throws Exception {
    signal("INT");
  }

  /** Sends a real SIGTERM, as a supervisor (systemd, Kubernetes, timeout(1)) does. */
  void terminate() throws Exception {
    signal("TERM");
  }

  private void signal(String name) throws Exception {
    Process kill =
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** Waits for the exit code; kills the child and fails after the deadline. */
  int await(Duration deadline) throws Exception {
    if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("child did not exit within " + deadline + "\n" + this);
    }
    return process.exitValue();
  }

  /** Polls until the condition holds; false if the child exited or the deadline passed first. */
  boolean awaitCondition(BooleanSupplier condition, Duration deadline) throws Exception {
    long end = System.nanoTime() + deadline.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return true;
      }
      if (!process.isAlive()) {
        return condition.getAsBoolean();
      }
      Thread.sleep(20);
    }
    return false;
  }

  String out() throws IOException {
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  String err() throws IOException {
    return Files.readString(err, StandardCharsets.UTF_8);
  }

  void killIfAlive() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * After a test: kills {@code child} if it still runs (null when none started), then every process
   * whose command line names {@code dir}, the test's own temporary directory, so that no relay the
   * test's child started outlives the test whatever happened. Only processes of this test match.
   */
  static void endAll(Child child, Path dir) throws InterruptedException {
    if (child != null) {
      child.killIfAlive();
    }
    ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(dir.toString()))
        .forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public String toString() {
    try {
      return "--- stdout\n" + out() + "\n--- stderr\n" + err();
    } catch (IOException e) {
      return "(output unreadable: " + e + ")";
    }
  }
}
