package dev.ceiling.junit;

import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.rig.RelayProfile;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a profile's relay executable is installed, so a test class can be skipped with a reason
 * instead of failing on a machine without it. Pure apart from reading the file system; thread-safe.
 */
final class RelayBinaryCheck {
  private RelayBinaryCheck() {}

  /**
   * Why the profile's executable cannot run here, or empty when it can (or cannot be known before
   * the rig expands the command: any placeholder other than {@code ${java}}, which is this JVM's
   * java).
   */
  static Optional<String> missing(RelayProfile profile) {
    String exe = profile.command().get(0);
    if ("${java}".equals(exe)) {
      Path java = Path.of(JavaExecutable.path());
      return Files.isExecutable(java)
          ? Optional.empty()
          : Optional.of(reason(profile, exe, "this JVM's java (" + java + ") is not executable"));
    }
    if (exe.contains("${")) {
      // Only the rig knows what this expands to; let it start and report.
      return Optional.empty();
    }
    if (exe.indexOf('/') >= 0 || exe.indexOf(File.separatorChar) >= 0) {
      Path p = Path.of(exe);
      if (!p.isAbsolute() && profile.baseDir() != null) {
        p = profile.baseDir().resolve(p);
      }
      return Files.isRegularFile(p) && Files.isExecutable(p)
          ? Optional.empty()
          : Optional.of(
              reason(profile, exe, p.toAbsolutePath() + " does not exist or is not executable"));
    }
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator, -1)) {
        Path p = Path.of(dir.isEmpty() ? "." : dir, exe);
        if (Files.isRegularFile(p) && Files.isExecutable(p)) {
          return Optional.empty();
        }
      }
    }
    return Optional.of(reason(profile, exe, "it is not on PATH (" + path + ")"));
  }

  private static String reason(RelayProfile profile, String exe, String why) {
    return "relay executable '"
        + exe
        + "' of profile "
        + profile.name()
        + " ("
        + profile.origin()
        + ") is not installed: "
        + why;
  }
}
