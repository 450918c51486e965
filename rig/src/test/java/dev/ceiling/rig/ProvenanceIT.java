package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.hash.Hashing;
import dev.ceiling.rig.internal.Provenance;
import dev.ceiling.rig.internal.Provenance.SourceState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Build identity from a real git checkout: two dirty trees at one commit are two builds. */
class ProvenanceIT {
  @TempDir Path dir;

  private void git(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(String.join(" ", args) + ": " + out).isZero();
  }

  @Test
  void dirtyTreesAtOneCommitHaveDifferentDigests() throws Exception {
    git("init", "-q");
    git("config", "user.email", "t@example.invalid");
    git("config", "user.name", "t");
    Files.writeString(dir.resolve("audit.rs"), "fn log() {}\n");
    git("add", "audit.rs");
    git("commit", "-q", "-m", "one");

    SourceState clean = Provenance.source(dir);
    assertThat(clean.revision()).matches("[0-9a-f]{40}");
    assertThat(clean.diffDigest()).isEqualTo(Hashing.sha256().hashBytes(new byte[0]).toString());

    Files.writeString(dir.resolve("audit.rs"), "fn log() { sleep(1) }\n");
    SourceState dirtyA = Provenance.source(dir);
    Files.writeString(dir.resolve("audit.rs"), "fn log() { sleep(2) }\n");
    SourceState dirtyB = Provenance.source(dir);
    Files.writeString(dir.resolve("audit.rs"), "fn log() { sleep(2) }\n");
    assertThat(Provenance.source(dir)).isEqualTo(dirtyB);

    // Same commit for all three, so the revision alone (the mutant identity) cannot tell them
    // apart; the diff digest must.
    assertThat(List.of(dirtyA.revision(), dirtyB.revision())).containsOnly(clean.revision());
    assertThat(List.of(clean.diffDigest(), dirtyA.diffDigest(), dirtyB.diffDigest()))
        .doesNotHaveDuplicates();

    // An untracked source file is part of the build too.
    Files.writeString(dir.resolve("new.rs"), "fn more() {}\n");
    SourceState untracked = Provenance.source(dir);
    assertThat(untracked.diffDigest()).isNotEqualTo(dirtyB.diffDigest());
    Files.writeString(dir.resolve("new.rs"), "fn more() { 1 }\n");
    assertThat(Provenance.source(dir).diffDigest()).isNotEqualTo(untracked.diffDigest());
  }

  @Test
  void aDirectoryThatIsNotACheckoutIsReported() {
    assertThatThrownBy(() -> Provenance.source(dir))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("git rev-parse HEAD in " + dir);
  }

  @Test
  void directoryDigestsDependOnPathsAndContents() throws IOException {
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("b"));
    Files.writeString(a.resolve("x.class"), "12");
    Files.writeString(b.resolve("y.class"), "12");
    assertThat(Provenance.digest(a)).isNotEqualTo(Provenance.digest(b));
    Files.writeString(b.resolve("y.class"), "1");
    Files.writeString(b.resolve("x.class"), "2");
    Files.delete(b.resolve("y.class"));
    Files.writeString(b.resolve("x.class"), "12");
    assertThat(Provenance.digest(a)).isEqualTo(Provenance.digest(b));
  }
}
