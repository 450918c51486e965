package dev.ceiling.core.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every report file is owner-only, report.html included (never 644). The partner is the
 * world-readable file the test plants first (what {@code Files.writeString} left under a 022
 * umask): the write must replace it with an owner-only one, not inherit its mode.
 */
class OwnerOnlyWriteTest {
  @TempDir Path dir;

  @Test
  void textAndJsonAreWrittenOwnerOnlyEvenOverAWorldReadableFile() throws Exception {
    Path html = dir.resolve("report.html");
    Files.writeString(html, "old");
    Files.setPosixFilePermissions(html, PosixFilePermissions.fromString("rw-r--r--"));
    Json.writeText(html, "<html></html>");
    assertThat(html).hasContent("<html></html>");
    assertThat(mode(html)).isEqualTo("rw-------");

    Path json = dir.resolve("report.json");
    Json.write(json, Map.of("a", 1));
    assertThat(mode(json)).isEqualTo("rw-------");
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
