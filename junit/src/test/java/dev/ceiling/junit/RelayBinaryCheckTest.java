package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.rig.RelayProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayBinaryCheckTest {
  @TempDir Path dir;

  /** The missing-binary profile with another executable. */
  RelayProfile withExecutable(String exe) throws Exception {
    String json =
        Files.readString(Path.of("src/test/resources/profiles/missing-binary.json"))
            .replace("\"/nonexistent/relay\"", "\"" + exe + "\"");
    Path f = dir.resolve("p.json");
    Files.writeString(f, json);
    return RelayProfile.load(f);
  }

  /** The check both the real function and its mutant go through. */
  static void assertReportsMissing(Function<RelayProfile, Optional<String>> check, RelayProfile p) {
    assertThat(check.apply(p)).hasValueSatisfying(r -> assertThat(r).contains("is not installed"));
  }

  @Test
  void findsExecutablesOnPathAndThisJvm() throws Exception {
    assertThat(RelayBinaryCheck.missing(withExecutable("sh"))).isEmpty();
    assertThat(RelayBinaryCheck.missing(RelayProfile.builtIn("reference"))).isEmpty();
  }

  @Test
  void reportsMissingBareNamesAndPaths() throws Exception {
    RelayProfile bare = withExecutable("no-such-relay-7f3a");
    assertReportsMissing(RelayBinaryCheck::missing, bare);
    assertThat(RelayBinaryCheck.missing(bare).orElseThrow()).contains("it is not on PATH (");
    assertReportsMissing(RelayBinaryCheck::missing, withExecutable("/nonexistent/relay"));
    // A file that exists but may not be executed is not installed either.
    Path notExecutable = Files.writeString(dir.resolve("relay"), "#!/bin/sh\n");
    assertReportsMissing(RelayBinaryCheck::missing, withExecutable(notExecutable.toString()));
  }

  @Test
  void mutantThatFindsEverythingIsCaught() throws Exception {
    RelayProfile bare = withExecutable("no-such-relay-7f3a");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> assertReportsMissing(p -> Optional.empty(), bare))
        .isInstanceOf(AssertionError.class);
  }
}
