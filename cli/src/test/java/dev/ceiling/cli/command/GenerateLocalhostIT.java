package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code localhost} and names under {@code .localhost} on the real reference relay: a profile
 * written with them comes up (its health and metrics URLs, its targets), and {@code generate}
 * publishes through them, connecting to 127.0.0.1 without a lookup and sending the name as the Host
 * header, which this relay serves communities by. The partners: a name outside .localhost is
 * refused before anything connects, in one line.
 */
class GenerateLocalhostIT {
  @TempDir static Path dir;
  static RigHandle rig;
  static int port;

  /** The built-in reference profile with every URL written with a loopback name. */
  @BeforeAll
  static void upWithLocalhostUrls() throws Exception {
    String json;
    try (InputStream in =
        RelayProfile.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String local =
        json.replace("http://127.0.0.1:${port}/health", "http://localhost:${port}/health")
            .replace("http://127.0.0.1:${port}/metrics", "http://localhost.:${port}/metrics")
            .replace(
                "\"url\": \"ws://127.0.0.1:${port}/\", \"host_header\": \"a.localhost:${port}\"",
                "\"url\": \"ws://a.localhost:${port}/\"");
    assertThat(local)
        .contains("http://localhost:", "ws://a.localhost:")
        .doesNotContain("\"host_header\": \"a.localhost");
    Path profile = dir.resolve("reference-localhost.json");
    Files.writeString(profile, local, StandardCharsets.UTF_8);
    rig =
        Rig.up(
            UpOptions.of(RelayProfile.load(profile), "off", dir.resolve("rig"))
                .withReset(true)
                .withOverrides(Relays.freePorts(Relays.UNDELAYED)));
    port = Integer.parseInt(rig.descriptor().relayInfo().get("port.port"));
  }

  @AfterAll
  static void down() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Test
  void theRigConnectsTo127001AndKeepsTheNameAsHostHeader() {
    RigDescriptor d = rig.descriptor();

    assertThat(d.healthUrl()).isEqualTo("http://127.0.0.1:" + port + "/health");
    assertThat(d.metricsUrl()).isEqualTo("http://127.0.0.1:" + port + "/metrics");
    Target a = d.targets().get(0);
    assertThat(a.url()).isEqualTo("ws://127.0.0.1:" + port + "/");
    assertThat(a.hostHeader()).isEqualTo("a.localhost:" + port);
    assertThat(rig.notes())
        .contains(
            "health_url localhost:" + port + " connects to 127.0.0.1 (it accepted a connection)",
            "metrics_url localhost.:" + port + " connects to 127.0.0.1 (it accepted a connection)",
            "target 'a' a.localhost:" + port + " connects to 127.0.0.1 (it accepted a connection)");
  }

  @Test
  void generatePublishesThroughLocalhostNames() throws Exception {
    for (String host : new String[] {"a.localhost", "b.localhost", "localhost"}) {
      Path json = dir.resolve(host + ".json");
      GenerateCommandTest.Outcome o =
          GenerateCommandTest.run(
              "--duration",
              "1s",
              "--lag-bound",
              "200ms",
              "--json",
              json.toString(),
              "--target",
              "url=ws://" + host + ":" + port + "/,rate=20");

      assertThat(o.code()).as(o.err()).isZero();
      assertThat(o.err())
          .contains(
              "generate: "
                  + host
                  + ":"
                  + port
                  + " connects to 127.0.0.1 (it accepted a connection)");
      GeneratorReport r = Json.read(json, GeneratorReport.class);
      // The relay signs nothing off: every event it answered OK was stored for the community the
      // Host header named (an unknown Host would be refused at the upgrade).
      assertThat(r.aggregate().accepted())
          .as(host)
          .isEqualTo(r.aggregate().attempted())
          .isPositive();
      assertThat(r.targets().get(0).url()).isEqualTo("ws://" + host + ":" + port + "/");
      assertThat(r.incomplete()).isNull();
    }
  }

  @Test
  void aNameOutsideDotLocalhostIsRefusedInOneLineBeforeConnecting() {
    for (String host : new String[] {"xlocalhost", "localhost.evil.com", "myrelay.test"}) {
      GenerateCommandTest.Outcome o =
          GenerateCommandTest.run(
              "--duration", "1s", "--target", "url=ws://" + host + ":" + port + "/,rate=20");

      assertThat(o.code()).as(host).isEqualTo(2);
      assertThat(o.err().lines()).as(o.err()).hasSize(1);
      assertThat(o.err())
          .startsWith("error: target 1 host '" + host + "' is not loopback (")
          .contains("refusing without --allow-remote")
          .doesNotContain("connects to");
    }
  }

  @Test
  void helpSaysWhichNamesAreLoopbackAndWhatASignalDoes() {
    GenerateCommandTest.Outcome o = GenerateCommandTest.run("--help");

    assertThat(o.code()).isZero();
    String help = String.join(" ", o.out().split("\\s+"));
    assertThat(help)
        .contains(
            "or localhost or a name under .localhost, which are never looked up: the run connects"
                + " to 127.0.0.1, or to ::1 when only that accepts",
            "130 stopped by SIGINT (Ctrl-C) or SIGTERM",
            "an 'incomplete' field saying which signal stopped it");
  }
}
