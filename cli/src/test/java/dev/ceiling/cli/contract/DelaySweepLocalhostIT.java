package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweepReport;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling sensitivity} on a profile whose every URL and upstream is written with a loopback
 * name ({@code localhost}, {@code a.localhost}), as a relay's README writes them: the same short
 * sweep as {@link DelaySweepCommandIT} measures every cell. The partner: the same profile with a
 * name outside {@code .localhost} exits 2 before any relay starts, naming the field.
 */
class DelaySweepLocalhostIT {
  @TempDir Path dir;

  private Path profile(String host) throws Exception {
    String json;
    try (InputStream in =
        ShortSweep.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String local =
        json.replace("http://127.0.0.1:${port}/", "http://" + host + ":${port}/")
            .replace(
                "\"url\": \"ws://127.0.0.1:${port}/\", \"host_header\": \"a.localhost:${port}\"",
                "\"url\": \"ws://a.localhost:${port}/\"")
            .replace(
                "\"target\": \"127.0.0.1:${db_port}\"", "\"target\": \"" + host + ":${db_port}\"");
    assertThat(local)
        .contains("http://" + host + ":${port}/health", "ws://a.localhost:", host + ":${db_port}");
    return Files.writeString(dir.resolve(host + ".json"), local, StandardCharsets.UTF_8);
  }

  @Test
  void aProfileWrittenWithLocalhostIsSweptLikeOneWrittenWithAddresses() throws Exception {
    Path out = dir.resolve("out");
    Cli.Outcome o =
        run(
            ShortSweep.args(
                    2,
                    FreePorts.one(),
                    FreePorts.one(),
                    20,
                    "--profile",
                    profile("localhost").toString(),
                    "--seed",
                    "3",
                    "--out",
                    out.toString())
                .toArray(String[]::new));

    // Two delays cannot show the line holds: exit 1 is this plan's documented outcome.
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    DelaySweepReport report = Json.read(out.resolve("sensitivity.json"), DelaySweepReport.class);
    assertThat(report.cells()).as(o.toString()).hasSize(4);
  }

  @Test
  void aNameOutsideDotLocalhostIsRefusedBeforeAnyRelayStarts() throws Exception {
    Cli.Outcome o =
        run(
            ShortSweep.args(
                    2,
                    FreePorts.one(),
                    FreePorts.one(),
                    20,
                    "--profile",
                    profile("localhost.evil.com").toString(),
                    "--out",
                    dir.resolve("refused").toString())
                .toArray(String[]::new));

    // The rig refuses the profile as it starts the relay: "the relay did not start", exit 3, as
    // experiment exits for the same refusal (HostsAliasRefusedIT); nothing is measured, and the
    // field and the host are named in the message, never an exception's class.
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.INFRASTRUCTURE);
    assertThat(o.err()).as(o.toString()).doesNotContain("Exception");
    assertThat(o.err())
        .as(o.toString())
        .contains("$.upstreams[0].target must point at loopback (")
        .contains("got localhost.evil.com:");
    assertThat(dir.resolve("refused").resolve("sensitivity.json")).doesNotExist();
  }
}
