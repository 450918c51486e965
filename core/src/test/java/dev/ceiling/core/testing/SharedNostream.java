package dev.ceiling.core.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one nostream setup a test run shares (its PostgreSQL, its Redis, PostgreSQL's statement log),
 * as a JUnit extension that a test class registers in a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final SharedNostream NOSTREAM = SharedNostream.fromCi("The ramp on nostream");
 * }</pre>
 *
 * <p>Before the class's tests it waits for the setup that {@code .ci/run} started beside the build
 * (its exit code lands in {@code CEILING_NOSTREAM_STATUS}, its work directory is {@code
 * CEILING_NOSTREAM_DIR}), and skips the class loudly, saying what did not run and why, when there
 * is none or it failed. Then it holds the setup: one test class at a time across every JVM of the
 * build. The test command builds two modules at a time, so the cli module's nostream test runs
 * beside e2e's: without the hold, one test could stop Redis (the link outage) or write statements
 * into the log (the wire count's truth) while another measures. The hold is an OS file lock in the
 * setup's work directory: it ends with the JVM that holds it, even if that JVM is killed, so a
 * crashed test never holds up the next one.
 */
public final class SharedNostream implements BeforeAllCallback, AfterAllCallback {
  /** The profile directory, from a module directory (cli, e2e) of the repository. */
  public static final Path PROFILE_DIR = Path.of("..", "docs", "profiles", "nostream");

  private static final long SETUP_WAIT_MINUTES = 20;
  private static final long OWN_SETUP_MINUTES = 15;

  private final String what;
  private final boolean ownSetupWhenAbsent;
  private Path work;
  private boolean setUpHere;
  private FileChannel channel;
  private FileLock lock;

  private SharedNostream(String what, boolean ownSetupWhenAbsent) {
    this.what = what;
    this.ownSetupWhenAbsent = ownSetupWhenAbsent;
  }

  /**
   * The setup {@code .ci/run} started; without one the class skips. {@code what} names what the
   * class proves, for the skip's banner ("The ramp on nostream" did NOT run).
   */
  public static SharedNostream fromCi(String what) {
    return new SharedNostream(what, false);
  }

  /**
   * As {@link #fromCi}, but where {@code .ci/run} started none (a developer's {@code mvn test}),
   * runs the profile's setup itself into a temporary directory and stops it after the class.
   */
  public static SharedNostream fromCiOrOwn(String what) {
    return new SharedNostream(what, true);
  }

  /** The setup's work directory (its {@code ceiling.env}, its servers' files, nostream). */
  public Path work() {
    if (work == null) {
      throw new IllegalStateException("the nostream setup is read before the class's tests start");
    }
    return work;
  }

  /** The setup's {@code ceiling.env}: its {@code NAME=value} lines. */
  public Map<String, String> env() throws IOException {
    return readEnv(work().resolve("ceiling.env"));
  }

  /** A {@code NAME=value} file, with the quotes around values taken off. */
  public static Map<String, String> readEnv(Path file) throws IOException {
    Map<String, String> out = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        out.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
      }
    }
    return out;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String status = System.getenv("CEILING_NOSTREAM_STATUS");
    String why;
    if (status != null && !status.isBlank()) {
      work = Path.of(System.getenv().getOrDefault("CEILING_NOSTREAM_DIR", ""));
      why = awaitSetup(Path.of(status));
    } else if (ownSetupWhenAbsent) {
      work = Files.createTempDirectory("ceiling-nostream-");
      setUpHere = true;
      why = runSetup(work);
    } else {
      why = "CEILING_NOSTREAM_STATUS is not set (.ci/run sets it)";
    }
    if (why != null) {
      System.err.println(
          "\n*** SKIPPING "
              + context.getRequiredTestClass().getSimpleName()
              + ": "
              + why
              + ". "
              + what
              + " did NOT run. ***\n");
      Assumptions.abort(why);
    }
    hold();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      release();
    } finally {
      if (setUpHere) {
        stopOwnSetup();
      }
    }
  }

  /** Waits until no other JVM holds the setup, then holds it. */
  private void hold() throws IOException {
    FileChannel ch =
        FileChannel.open(
            work.resolve("ceiling-tests.lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
    try {
      lock = ch.lock();
      channel = ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  private void release() throws IOException {
    if (channel == null) {
      return;
    }
    try {
      lock.release();
    } finally {
      channel.close();
      channel = null;
      lock = null;
    }
  }

  /** Waits for .ci/run's setup to end; null when it succeeded, else why not. */
  private static String awaitSetup(Path status) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(SETUP_WAIT_MINUTES);
    while (!Files.exists(status)) {
      if (System.nanoTime() > deadline) {
        return "the nostream setup (run by .ci/run) wrote no exit code to "
            + status
            + " within "
            + SETUP_WAIT_MINUTES
            + " minutes";
      }
      Thread.sleep(1000);
    }
    String code = Files.readString(status, StandardCharsets.UTF_8).strip();
    return code.equals("0")
        ? null
        : "the nostream setup (run by .ci/run) exited " + code + "; .ci/run prints its log";
  }

  /** Runs the profile's setup into {@code into}, bounded; null when it succeeded, else why not. */
  private static String runSetup(Path into) throws Exception {
    Path log = Files.createTempFile("ceiling-nostream-setup-", ".log");
    Process p =
        new ProcessBuilder(
                "bash",
                PROFILE_DIR.resolve("setup").toString(),
                into.toString(),
                "--log-statements")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(OWN_SETUP_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return "the nostream setup did not finish within "
          + OWN_SETUP_MINUTES
          + " minutes (log: "
          + log
          + ")";
    }
    if (p.exitValue() != 0) {
      List<String> lines = Files.readAllLines(log);
      return "the nostream setup exited "
          + p.exitValue()
          + ": "
          + String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }
    Files.delete(log);
    return null;
  }

  /** Stops the servers of a setup this extension ran, then deletes its directory. */
  private void stopOwnSetup() throws Exception {
    Process p =
        new ProcessBuilder(
                "bash", PROFILE_DIR.resolve("setup").toString(), "--stop", work.toString())
            .redirectErrorStream(true)
            .start();
    p.getInputStream().transferTo(OutputStream.nullOutputStream());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      // Its servers may still run: keep the directory (their pid files) for a later --stop.
      throw new AssertionError("`setup --stop " + work + "` did not succeed; stop it by hand");
    }
    // The servers are gone: their files, and nostream's packages, go too.
    try (Stream<Path> all = Files.walk(work)) {
      for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
