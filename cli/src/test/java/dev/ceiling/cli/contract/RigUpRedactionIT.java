package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rig up} with a token in a target URL ({@code ?auth=...}): the descriptor it prints carries
 * {@code auth=redacted}, never the token. The partner is the owner-only descriptor file, which
 * keeps the token because the sweep connects from it: the redaction is of what is shown, not a URL
 * that lost its query.
 */
class RigUpRedactionIT {
  @TempDir Path dir;

  @Test
  void thePrintedDescriptorCarriesNoToken() throws Exception {
    String profile;
    try (InputStream in =
        getClass().getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      profile = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path p = dir.resolve("token.json");
    Files.writeString(
        p,
        profile.replace("\"ws://127.0.0.1:${port}/\"", "\"ws://127.0.0.1:${port}/?auth=s3cr3t\""));
    Path state = dir.resolve("rig");
    Cli.Outcome up =
        Cli.run(
            "rig",
            "up",
            "--profile",
            p.toString(),
            "--state-dir",
            state.toString(),
            "--param",
            "port=" + FreePorts.one(),
            "--param",
            "db_port=" + FreePorts.one(),
            "--ready-timeout",
            "120");
    try {
      assertThat(up.code()).as(up.toString()).isZero();
      assertThat(up.out()).doesNotContain("s3cr3t").contains("/?auth=redacted");
      assertThat(up.err()).doesNotContain("s3cr3t");
      assertThat(Files.readString(state.resolve("descriptor.json"))).contains("/?auth=s3cr3t");
    } finally {
      Cli.Outcome down = Cli.run("rig", "down", "--state-dir", state.toString());
      assertThat(down.code()).as(down.toString()).isZero();
    }
  }
}
