package dev.ceiling.core.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one nostream setup a test run shares (its PostgreSQL, its Redis, PostgreSQL's statement log),
 * held by one test class at a time across every JVM of the build. The test command builds two
 * modules at a time, so the cli module's nostream test runs beside e2e's: without this, one test
 * could stop Redis (the link outage) or write statements into the log (the wire count's truth)
 * while the other measures. An OS file lock in the setup's work directory: the lock ends with the
 * JVM that holds it, even if that JVM is killed, so a crashed test never holds up the next one.
 */
public final class SharedNostream implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private SharedNostream(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Waits until no other JVM holds the setup in {@code workDir}, then holds it. One holder per JVM:
   * the test classes of one JVM run one after another, each releasing it in its {@code @AfterAll}.
   */
  public static SharedNostream hold(Path workDir) throws IOException {
    FileChannel ch =
        FileChannel.open(
            workDir.resolve("ceiling-tests.lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
    try {
      return new SharedNostream(ch, ch.lock());
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
