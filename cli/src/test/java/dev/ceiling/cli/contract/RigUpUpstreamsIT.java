package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rig up} with a profile that declares an upstream: the command exits while the relay runs
 * on, so the relay is linked straight to the target and a note says there is no delay proxy on it;
 * a remote target is a usage error naming the field.
 */
class RigUpUpstreamsIT {
  @TempDir Path dir;

  /** A relay (python3's http.server) that takes its upstream's address as an ignored argument. */
  private static String profile(int port, String target) {
    String python =
        Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    return """
        {
          "name": "linked",
          "command": ["%s", "-c",
                      "import http.server,sys; http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), http.server.BaseHTTPRequestHandler).serve_forever()",
                      "${port}", "${rig_id}", "${upstream.db.address}"],
          "ports": {"port": %d},
          "readiness": "tcp:port",
          "contamination_evidence": "client",
          "upstreams": [{"name": "db", "target": "%s"}],
          "treatment_arm": "on",
          "control_arm": "off",
          "arms": {"on": {"args": ["on"]}, "off": {"args": ["off"]}},
          "targets": [{"community": "a", "url": "ws://127.0.0.1:${port}/"}]
        }
        """
        .formatted(python, port, target);
  }

  @Test
  void upLinksTheUpstreamDirectlyAndSaysSo() throws Exception {
    int port = FreePorts.one();
    int db = FreePorts.one();
    Path file = Files.writeString(dir.resolve("linked.json"), profile(port, "127.0.0.1:" + db));
    Path state = dir.resolve("state");
    Cli.Outcome up =
        Cli.run("rig", "up", "--profile", file.toString(), "--state-dir", state.toString());
    try {
      assertThat(up.code()).as(up.toString()).isZero();
      assertThat(up.out())
          .contains("\"upstream.db.address\" : \"127.0.0.1:" + db + "\"")
          .contains("\"upstream.db.via\" : \"direct\"");
      assertThat(up.errLines())
          .as(up.toString())
          .contains(
              "note: upstream 'db' is linked directly to 127.0.0.1:"
                  + db
                  + ": no delay proxy, so no added delay and no wire count on it (a proxy lives"
                  + " only as long as the process that owns it)");
    } finally {
      Cli.Outcome down = Cli.run("rig", "down", "--state-dir", state.toString());
      assertThat(down.code()).as(down.toString()).isZero();
    }
  }

  @Test
  void aRemoteUpstreamIsAUsageErrorNamingItsField() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("remote.json"), profile(FreePorts.one(), "db.example.com:5432"));
    Cli.Outcome up =
        Cli.run(
            "rig", "up", "--profile", file.toString(), "--state-dir", dir.resolve("s").toString());
    Cli.assertUsageError(up, "$.upstreams[0].target must point at loopback");
    assertThat(up.err()).contains("got db.example.com:5432");
  }
}
