package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of the shortest {@code ceiling sensitivity} the command tests run: delays 2 and 4
 * ms, 1 s windows at 45 events/s, on the reference relay with no built-in exchange delay, a queue
 * of 20 and a 20-run calibration (the relay starts in about a second). One place, so that the tests
 * of the command, its resume and its Ctrl-C run the same plan.
 */
public final class ShortSweep {
  private ShortSweep() {}

  /**
   * The command's arguments, then {@code more} (e.g. "--seed", "5", "--out", dir).
   *
   * @param repeats of each delay
   * @param port the relay's port
   * @param dbPort its database's port
   * @param queueCapacity the relay's audit queue
   */
  public static List<String> args(
      int repeats, int port, int dbPort, int queueCapacity, String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "sensitivity",
                "--delays",
                "2,4",
                "--repeats",
                Integer.toString(repeats),
                "--duration",
                "1",
                "--rate",
                "45",
                "--param",
                "port=" + port,
                "--param",
                "db_port=" + dbPort,
                "--param",
                "exchange_delay_ms=0",
                "--param",
                "queue_capacity=" + queueCapacity,
                "--param",
                "calibration_runs=20"));
    a.addAll(List.of(more));
    return List.copyOf(a);
  }

  /**
   * The built-in linked profile with a second upstream, 'cache', beside 'db', written into {@code
   * dir}. 'cache' points at the database's port too, and the relay never dials it: a link the audit
   * path does not touch.
   */
  public static Path twoLinks(Path dir) throws IOException {
    String json;
    try (InputStream in =
        ShortSweep.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String one = "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:${db_port}\"}]";
    assertThat(json).contains(one);
    return Files.writeString(
        dir.resolve("two-links.json"),
        json.replace(
            one,
            "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:${db_port}\"},"
                + " {\"name\": \"cache\", \"target\": \"127.0.0.1:${db_port}\"}]"));
  }
}
