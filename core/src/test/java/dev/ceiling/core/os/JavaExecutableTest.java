package dev.ceiling.core.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JavaExecutableTest {
  @Test
  void isThisJvmsJavaAndRuns() {
    Path java = Path.of(JavaExecutable.path());
    assertThat(java).startsWith(Path.of(System.getProperty("java.home")));
    assertThat(Files.isExecutable(java)).isTrue();
  }
}
