package dev.ceiling.core.os;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The java executable of the JVM running this code, for starting a child JVM of the same version (a
 * relay profile's {@code ${java}}, the generator child processes, benchmarks' helpers).
 *
 * <p>The rule is {@code ${java.home}/bin/java}: {@code java.home} is always set and names the
 * installation this JVM runs from. {@link ProcessHandle.Info#command} is not used: it can be
 * absent, or name a launcher that is not java (an embedding process, a jpackage image).
 */
public final class JavaExecutable {
  private JavaExecutable() {}

  /** The absolute path of this JVM's java; thread-safe, no I/O. */
  public static String path() {
    boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("win");
    return Path.of(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java")
        .toString();
  }
}
