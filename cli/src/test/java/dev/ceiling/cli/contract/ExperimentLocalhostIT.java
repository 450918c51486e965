package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.testing.FreePorts;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling experiment} on a profile whose health and metrics URLs are written with {@code
 * localhost} and {@code localhost.} and whose target is {@code ws://a.localhost:PORT/}, as a
 * relay's README writes them: both arms come up and are measured, the console's rig line names the
 * address it connects to (127.0.0.1), and the half-runs record the target at 127.0.0.1 with the
 * name kept as its Host header. The partner, a name that only a hosts file maps to loopback, is
 * refused before any relay serves (HostsAliasRefusedIT); a name outside .localhost is refused by
 * GenerateLocalhostIT and DelaySweepCommandIT.
 */
class ExperimentLocalhostIT {
  @TempDir Path dir;

  @Test
  void aProfileWrittenWithLocalhostIsMeasuredInBothArmsThrough127001() throws Exception {
    String json;
    try (InputStream in =
        getClass().getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String local =
        json.replace("http://127.0.0.1:${port}/health", "http://localhost:${port}/health")
            .replace("http://127.0.0.1:${port}/metrics", "http://localhost.:${port}/metrics")
            .replace(
                "\"url\": \"ws://127.0.0.1:${port}/\", \"host_header\": \"a.localhost:${port}\"",
                "\"url\": \"ws://a.localhost:${port}/\"");
    assertThat(local)
        .contains(
            "\"health_url\": \"http://localhost:",
            "\"metrics_url\": \"http://localhost.:",
            "ws://a.localhost:");
    Path profile = Files.writeString(dir.resolve("local.json"), local, StandardCharsets.UTF_8);
    int port = FreePorts.one();
    Path out = dir.resolve("out");

    Cli.Outcome o =
        run(
            "experiment",
            "--profile",
            profile.toString(),
            "--out",
            out.toString(),
            "--rates",
            "30",
            "--repeats",
            "2",
            "--duration",
            "1",
            "--warmup",
            "0.2",
            "--param",
            "port=" + port,
            "--param",
            "db_port=" + FreePorts.one());

    // One rate the reference relay takes whole in both arms cannot separate them: exit 1 is this
    // plan's documented outcome.
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.err())
        .as(o.toString())
        .contains("rig up: arm 'on'", "rig up: arm 'off'")
        .contains("metrics http://127.0.0.1:" + port + "/metrics");
    for (String arm : new String[] {"on", "off"}) {
      HalfRun h = Json.read(out.resolve("half-" + arm + ".json"), HalfRun.class);
      assertThat(h.complete()).as(arm).isTrue();
      assertThat(h.cells()).as(arm).hasSize(2);
      assertThat(h.rig().targets().get(0).url()).isEqualTo("ws://127.0.0.1:" + port + "/");
      assertThat(h.rig().targets().get(0).hostHeader()).isEqualTo("a.localhost:" + port);
      assertThat(h.cells().get(0).acceptedInWindow()).as(arm).isPositive();
    }
  }
}
