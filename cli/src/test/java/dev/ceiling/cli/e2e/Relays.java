package dev.ceiling.cli.e2e;

import dev.ceiling.rig.RelayProfile;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Helpers for end-to-end tests against the real reference relay on free loopback ports. */
final class Relays {
  private Relays() {}

  static RelayProfile reference() throws Exception {
    return RelayProfile.builtIn("reference");
  }

  /** Overrides putting the relay on free ports, plus the given parameters. */
  static Map<String, String> freePorts(Map<String, String> params) throws IOException {
    Map<String, String> m = new HashMap<>(params);
    m.put("port", Integer.toString(freePort()));
    m.put("db_port", Integer.toString(freePort()));
    return m;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * The built-in reference profile with its admission limiter left at the relay's defaults (10
   * events/s per identity over a 5 s window) instead of raised: the seed's trap.
   */
  static RelayProfile referenceWithDefaultLimits(Path dir) throws Exception {
    String json;
    try (InputStream in =
        RelayProfile.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String limited =
        json.replace("\"value\": \"1000000\"", "\"value\": \"10\"")
            .replace(
                "\"value\": \"1\", \"args\": [\"--limiter-window-secs\"",
                "\"value\": \"5\", \"args\": [\"--limiter-window-secs\"");
    if (limited.equals(json) || !limited.contains("\"value\": \"5\"")) {
      throw new IllegalStateException("the reference profile's limiter entries changed shape");
    }
    Path f = dir.resolve("reference-default-limits.json");
    Files.writeString(f, limited, StandardCharsets.UTF_8);
    return RelayProfile.load(f);
  }
}
