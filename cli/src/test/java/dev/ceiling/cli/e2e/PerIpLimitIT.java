package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Target;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The known answer of source addresses: the real reference relay limits each IP address to 50
 * events/s (its per-pubkey limit far above), and {@code ceiling generate} offers 200 events/s over
 * 8 connections and 64 identities for 3 s. From one source address (127.0.0.2) the per-IP limit
 * binds and about a quarter of the offer is accepted; spread over 8 addresses (25 events/s each) it
 * does not bind and nearly all of it is. The relay's {@code quota_ip} rejections account for every
 * refusal the generator counted. Margins are wide (below 0.5, above 0.9): the figures are 0.25-0.35
 * and 1.
 */
class PerIpLimitIT {
  static final double RATE_PER_S = 200;
  static final int PER_IP_PER_S = 50;
  static final Pattern QUOTA_IP =
      Pattern.compile(
          "(?m)^refrelay_admission_rejections_total\\{reason=\"quota_ip\",transport=\"websocket\"\\}"
              + " (\\S+)$");

  @TempDir Path dir;

  /** All of 127.0.0.0/8 is loopback on Linux; where it is not, say so here, not as a refusal. */
  @BeforeAll
  static void bindingTo127002Works() throws Exception {
    InetAddress from = InetAddress.getByAddress(new byte[] {127, 0, 0, 2});
    InetAddress to = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    try (ServerSocket server = new ServerSocket(0, 1, to);
        Socket s = new Socket()) {
      s.bind(new InetSocketAddress(from, 0));
      s.connect(new InetSocketAddress(to, server.getLocalPort()), 5_000);
      assertThat(s.getLocalAddress()).as("bound source address").isEqualTo(from);
    }
  }

  /**
   * The built-in reference profile with the per-IP limit on, the per-pubkey limit left raised, a 1
   * s window, and OK false answers, so every refusal reaches the generator as a counted OK.
   */
  static RelayProfile perIpLimited(Path dir) throws Exception {
    ObjectNode root;
    try (InputStream in =
        RelayProfile.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      root = (ObjectNode) Json.mapper().readTree(in);
    }
    for (JsonNode l : root.get("limiter")) {
      ObjectNode setting = (ObjectNode) l;
      switch (setting.get("name").asText()) {
        case "limiter_per_ip_events_per_sec" -> setting.put("value", "" + PER_IP_PER_S);
        case "limiter_window_secs" -> setting.put("value", "1");
        case "limiter_reject_mode" -> setting.put("value", "ok-false");
        default -> {}
      }
    }
    Path f = dir.resolve("reference-per-ip.json");
    Files.writeString(f, Json.mapper().writeValueAsString(root));
    return RelayProfile.load(f);
  }

  static double quotaIpRejections(String metricsUrl) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(metricsUrl))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Matcher m = QUOTA_IP.matcher(r.body());
    assertThat(m.find()).as("quota_ip series in %s", metricsUrl).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** One {@code ceiling generate} run from {@code sources}, a {@code --source-addresses} value. */
  GeneratorReport generate(Target t, String sources, String name) throws Exception {
    Path json = dir.resolve(name + ".json");
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "generate",
                "--duration",
                "3s",
                "--grace-period",
                "5s",
                "--connect-timeout",
                "30s",
                "--lag-bound",
                "250ms",
                "--target",
                "url="
                    + t.url()
                    + ",host="
                    + t.hostHeader()
                    + ",rate="
                    + RATE_PER_S
                    + ",conns=8,identities=64",
                "--json",
                json.toString()));
    args.addAll(List.of("--source-addresses", sources));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    assertThat(code).as("generate %s: %s", name, err).isZero();
    GeneratorReport r = Json.read(json, GeneratorReport.class);
    System.out.println(
        name
            + ": M="
            + r.sourceAddresses()
            + " attempted="
            + r.aggregate().attempted()
            + " accepted="
            + r.aggregate().accepted()
            + " rejected="
            + r.aggregate().rejected()
            + " unacknowledged="
            + r.aggregate().unacknowledged());
    return r;
  }

  static double acceptedOverAttempted(GeneratorReport r) {
    return (double) r.aggregate().accepted() / r.aggregate().attempted();
  }

  /** The per-IP limit did not bind: nearly all of the offer accepted. */
  static void assertNotBound(GeneratorReport r) {
    double share = acceptedOverAttempted(r);
    if (!(share > 0.9)) {
      throw new AssertionError("accepted/attempted must be > 0.9, got " + share);
    }
  }

  @Test
  void onePerIpLimitBindsOneSourceAddressButNotEight() throws Exception {
    UpOptions up =
        UpOptions.of(perIpLimited(dir), "off", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(Relays.freePorts(Relays.UNDELAYED));
    try (RigHandle rig = Rig.up(up)) {
      Target a = rig.descriptor().targets().get(0);
      String metrics = rig.descriptor().metricsUrl();

      double before = quotaIpRejections(metrics);
      GeneratorReport one = generate(a, "127.0.0.2", "one-address");
      double afterOne = quotaIpRejections(metrics);
      GeneratorReport eight = generate(a, "127.0.0.2-127.0.0.9", "eight-addresses");
      double afterEight = quotaIpRejections(metrics);

      assertThat(one.sourceAddresses()).isEqualTo(1);
      assertThat(eight.sourceAddresses()).isEqualTo(8);
      for (GeneratorReport r : List.of(one, eight)) {
        assertThat(r.aggregate().attempted()).isEqualTo(600);
        assertThat(r.aggregate().unacknowledged()).isZero();
      }
      // One address: about 50 of the 200 events/s accepted, every refusal a quota_ip one.
      assertThat(acceptedOverAttempted(one)).isLessThan(0.5);
      assertThat(one.aggregate().rejectedByPrefix()).containsOnlyKeys("rate-limited");
      assertThat(afterOne - before).isEqualTo((double) one.aggregate().rejected());
      // Eight addresses, 25 events/s each: the limit does not bind.
      assertNotBound(eight);
      assertThat(afterEight - afterOne).isEqualTo((double) eight.aggregate().rejected());
      // Partner: the same check on the one-address run must fail.
      assertThatThrownBy(() -> assertNotBound(one))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("accepted/attempted must be > 0.9, got 0.");
    }
  }
}
