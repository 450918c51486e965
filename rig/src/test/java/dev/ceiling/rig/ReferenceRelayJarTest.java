package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceRelayJarTest {
  @TempDir Path dir;

  @Test
  void theSystemPropertyWinsOverTheEnvironment() throws Exception {
    Path a = Files.writeString(dir.resolve("a.jar"), "x");
    Path b = Files.writeString(dir.resolve("b.jar"), "y");
    assertThat(
            ReferenceRelayJar.locate(
                Optional.of(a.toString()), Map.of(ReferenceRelayJar.ENV, b.toString())))
        .isEqualTo(a);
    assertThat(
            ReferenceRelayJar.locate(Optional.empty(), Map.of(ReferenceRelayJar.ENV, b.toString())))
        .isEqualTo(b);
  }

  @Test
  void neitherSetIsRefusedNamingBoth() {
    assertThatThrownBy(() -> ReferenceRelayJar.locate(Optional.empty(), Map.of()))
        .isInstanceOf(RigException.class)
        .hasMessageContaining(ReferenceRelayJar.PROPERTY)
        .hasMessageContaining(ReferenceRelayJar.ENV);
    assertThatThrownBy(() -> ReferenceRelayJar.locate(Optional.of(" "), Map.of()))
        .isInstanceOf(RigException.class)
        .hasMessageContaining("is not known");
  }

  @Test
  void aPathThatIsNoFileIsRefusedNamingIt() {
    Path missing = dir.resolve("nope.jar");
    assertThatThrownBy(() -> ReferenceRelayJar.locate(Optional.of(missing.toString()), Map.of()))
        .isInstanceOf(RigException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("not a readable file");
    assertThatThrownBy(() -> ReferenceRelayJar.locate(Optional.of(dir.toString()), Map.of()))
        .isInstanceOf(RigException.class)
        .hasMessageContaining("not a readable file");
  }
}
