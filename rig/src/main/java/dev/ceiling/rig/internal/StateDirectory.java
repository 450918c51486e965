package dev.ceiling.rig.internal;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;

/**
 * Which state directories are the rig's own. The rig creates a state directory itself and marks it
 * with {@value #MARKER}; only a marked directory is ever made owner-only or has its {@code data/}
 * deleted by a reset. An existing directory without the marker (a home directory, a project, a
 * user's temporary directory passed by mistake) is refused, untouched, whatever it holds.
 */
public final class StateDirectory {
  /** The marker file, written when the rig creates the directory. */
  public static final String MARKER = ".ceiling-rig-state";

  /** The descriptor the rig writes once the relay is ready (or attached). */
  public static final String DESCRIPTOR_FILE = "descriptor.json";

  /** The relay's stdout and stderr; the previous run's is kept as {@code relay.log.1}. */
  public static final String LOG_FILE = "relay.log";

  /** The relay's {@code ${data_dir}}, deleted by a reset. */
  public static final String DATA_DIR = "data";

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private StateDirectory() {}

  /**
   * Creates {@code dir} (owner-only, marked) when it does not exist; accepts it when it carries the
   * marker. Otherwise returns why it is refused, having changed nothing.
   */
  public static Optional<String> claim(Path dir) throws IOException {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Path parent = dir.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      if (POSIX) {
        Files.createDirectory(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectory(dir);
      }
      OwnerOnlyFiles.write(
          dir.resolve(MARKER),
          "Created by the Ceiling rig at "
              + Instant.now()
              + ". The rig resets data/ and keeps this directory owner-only only while this"
              + " file is here.\n");
      return Optional.empty();
    }
    if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(dir + " exists and is not a directory; refusing to use it as state");
    }
    if (!Files.isRegularFile(dir.resolve(MARKER), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(
          "state directory "
              + dir
              + " exists but was not created by the rig (no "
              + MARKER
              + " in it); refusing to reset, chmod or write into it. Pass a path that does not"
              + " exist yet: the rig creates and marks it");
    }
    if (POSIX) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
    return Optional.empty();
  }
}
