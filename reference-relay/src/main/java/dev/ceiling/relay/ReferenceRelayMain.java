package dev.ceiling.relay;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * Runs the reference relay as its own JVM. Prints exactly one line on stdout when ready (see {@link
 * ReferenceRelay#readyLine()}); everything else goes to stderr. Stops cleanly on SIGTERM (a
 * shutdown hook stops accepting and closes the database).
 *
 * <p>Exit codes: 0 stopped by signal (or {@code --help} / {@code --version} printed), 2 bad command
 * line (every problem listed on stderr, one line each), 3 the relay could not start.
 */
public final class ReferenceRelayMain {
  private ReferenceRelayMain() {}

  public static void main(String[] args) {
    run(args, null);
  }

  /**
   * Runs the relay with {@code writers} as its audit path's exchanges, or the database's when null
   * (the seam a test relay's own main uses).
   */
  static void run(String[] args, Function<AuditDatabase, AuditLog.Writers> writers) {
    // java.util.logging writes to stderr by default; stdout carries only the ready line.
    ReferenceRelayConfig config;
    try {
      ReferenceRelayArgs.Parsed parsed = ReferenceRelayArgs.parseOrHelp(args);
      if (parsed.helpText() != null) {
        System.out.print(parsed.helpText());
        System.out.flush();
        return;
      }
      config = parsed.config();
    } catch (ReferenceRelayConfigException e) {
      for (String p : e.problems()) {
        System.err.println("refrelay: " + p);
      }
      System.exit(2);
      return;
    }
    System.err.println("refrelay: " + config.describe());
    ReferenceRelay relay;
    try {
      relay =
          writers == null ? ReferenceRelay.start(config) : ReferenceRelay.start(config, writers);
    } catch (IOException | RuntimeException e) {
      System.err.println("refrelay: failed to start: " + e);
      e.printStackTrace(System.err);
      System.exit(3);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.err.println("refrelay: stopping");
                  relay.close();
                  stopped.countDown();
                },
                "refrelay-shutdown"));
    System.out.println(relay.readyLine());
    System.out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
