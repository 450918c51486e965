package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep --connect-timeout}: against a listener that accepts TCP and never answers the
 * WebSocket upgrade, the sweep gives up after the timeout it was given and says so. The partner is
 * a second timeout, which the message must follow (a flag that did not reach the generator would
 * name the default 60 s both times).
 */
class SweepConnectTimeoutIT {
  @TempDir Path dir;

  @Test
  void theHandshakeWaitIsTheFlagsAndIsNamed() throws Exception {
    try (ServerSocket silent =
        new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
      List<Socket> held = new ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                while (!silent.isClosed()) {
                  try {
                    held.add(silent.accept()); // accepted, never answered
                  } catch (java.io.IOException e) {
                    return;
                  }
                }
              },
              "silent-relay");
      acceptor.setDaemon(true);
      acceptor.start();
      Path rig = descriptor(silent.getLocalPort());
      Cli.Outcome two = sweep(rig, "2s", "a");
      assertThat(two.toString()).contains("no upgrade within 2000 ms");
      assertThat(two.code()).as(two.toString()).isIn(1, 3);
      Cli.Outcome three = sweep(rig, "3s", "b");
      assertThat(three.toString()).contains("no upgrade within 3000 ms");
      for (Socket s : held) {
        s.close();
      }
    }
    assertThat(Cli.run("sweep", "--help").out()).contains("--connect-timeout");
  }

  private Cli.Outcome sweep(Path rig, String timeout, String name) throws Exception {
    Path half = dir.resolve("half-" + name + ".json");
    Cli.Outcome o =
        Cli.run(
            "sweep",
            "--rig",
            rig.toString(),
            "--profile",
            "reference",
            "--json",
            half.toString(),
            "--rates",
            "10",
            "--repeats",
            "1",
            "--duration",
            "1",
            "--warmup",
            "0",
            "--connect-timeout",
            timeout);
    // The failure may be the sweep's (stderr) or the cell's (in the half-run): either names it.
    String written = Files.exists(half) ? Files.readString(half) : "";
    return new Cli.Outcome(o.code(), o.out(), o.err() + written);
  }

  private Path descriptor(int port) throws Exception {
    String golden;
    try (InputStream in = getClass().getResourceAsStream("rig-descriptor.json")) {
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String text =
        golden
            .replace("7777", Integer.toString(port))
            .replace(
                "\"metrics_url\" : \"http://127.0.0.1:" + port + "/metrics\"",
                "\"metrics_url\" : null")
            .replace(
                "\"contamination_evidence\" : \"metrics\"",
                "\"contamination_evidence\" : \"client\"")
            .replaceAll("(?s)\"metric_mapping\" : \\{.*?\\},", "\"metric_mapping\" : { },")
            .replace(
                "\"positive_controlled\" : [ \"admission_rejections_quota\" ]",
                "\"positive_controlled\" : [ ]");
    Path file = dir.resolve("rig.json");
    Files.writeString(file, text);
    return file;
  }
}
