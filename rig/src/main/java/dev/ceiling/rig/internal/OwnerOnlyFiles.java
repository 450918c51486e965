package dev.ceiling.rig.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files and directories readable by their owner only. Rig state (pid file, descriptor, log) never
 * holds a secret today, but a bench key written beside it must not be world-readable, so the whole
 * state directory is owner-only rather than judged file by file.
 */
public final class OwnerOnlyFiles {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private OwnerOnlyFiles() {}

  /** Creates the directory (and parents) and makes it rwx------. */
  public static Path directory(Path dir) throws IOException {
    Files.createDirectories(dir);
    if (POSIX) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
    return dir;
  }

  /** Creates or truncates an empty rw------- file. */
  public static Path emptyFile(Path file) throws IOException {
    Files.deleteIfExists(file);
    if (POSIX) {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } else {
      Files.createFile(file);
    }
    return file;
  }

  /**
   * Writes text atomically (sibling temp file, then rename) with rw------- from the first byte: the
   * permissions are set at creation, so there is no window in which the content is readable by
   * others.
   */
  public static void write(Path file, String text) throws IOException {
    Path abs = file.toAbsolutePath();
    Path dir = abs.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp =
        POSIX
            ? Files.createTempFile(
                dir,
                abs.getFileName().toString(),
                ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
            : Files.createTempFile(dir, abs.getFileName().toString(), ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
