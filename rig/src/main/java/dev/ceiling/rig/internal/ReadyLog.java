package dev.ceiling.rig.internal;

import dev.ceiling.core.model.ReadyLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Finds the relay's READY line in its log ({@link ReadyLine} reads it). */
public final class ReadyLog {
  private static final Duration POLL = Duration.ofMillis(50);

  private ReadyLog() {}

  /**
   * The first line of {@code log} starting with {@code prefix}. Waits up to {@code wait}, because
   * stdout may trail the health URL.
   *
   * @throws InterruptedException at once when interrupted
   */
  public static Optional<ReadyLine> await(Path log, String prefix, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    do {
      Optional<ReadyLine> found = find(log, prefix);
      if (found.isPresent()) {
        return found;
      }
      Thread.sleep(POLL.toMillis());
    } while (System.nanoTime() - deadline < 0);
    return Optional.empty();
  }

  private static Optional<ReadyLine> find(Path log, String prefix) {
    try {
      for (String line : Files.readAllLines(log)) {
        Optional<ReadyLine> r = ReadyLine.parse(prefix, line);
        if (r.isPresent()) {
          return r;
        }
      }
    } catch (IOException e) {
      // Unreadable as UTF-8 or gone: keep polling until the deadline.
    }
    return Optional.empty();
  }
}
