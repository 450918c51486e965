package dev.ceiling.experiment.testing;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Helpers for end-to-end tests against the real reference relay on free loopback ports, shared by
 * the CLI's tests and the end-to-end module's (this module's test-jar).
 */
public final class Relays {
  private Relays() {}

  /**
   * No injected delay and a queue of 1000 in place of the profile's 0.5 ms and 100: an audit worker
   * far faster than the rates these tests offer, and a queue that never fills, so the audit path
   * never binds where a test looks at something else.
   */
  public static final Map<String, String> UNDELAYED =
      Map.of("exchange_delay_ms", "0", "queue_capacity", "1000");

  public static RelayProfile reference() throws Exception {
    return RelayProfile.builtIn("reference");
  }

  /** Overrides putting the relay on free ports, plus the given parameters. */
  public static Map<String, String> freePorts(Map<String, String> params) throws IOException {
    Map<String, String> m = new HashMap<>(params);
    m.put("port", Integer.toString(FreePorts.one()));
    m.put("db_port", Integer.toString(FreePorts.one()));
    return m;
  }

  /**
   * The built-in reference profile with its admission limiter left at the relay's defaults (10
   * events/s per identity over a 5 s window) instead of raised: the seed's trap.
   */
  public static RelayProfile referenceWithDefaultLimits(Path dir) throws Exception {
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

  /**
   * The built-in reference profile with its metrics hidden: no metrics URL, no mapping, no delay
   * control (its turns are read from the metrics), and {@code contamination_evidence: "client"}, so
   * only what the generator sees can show contamination. With {@code defaultLimits} its limiter is
   * also left at the relay's defaults (the seed's trap), as in {@link
   * #referenceWithDefaultLimits(Path)}.
   */
  public static RelayProfile referenceWithoutMetrics(Path dir, boolean defaultLimits)
      throws Exception {
    String source = "/dev/ceiling/rig/profiles/reference.json";
    com.fasterxml.jackson.databind.node.ObjectNode root;
    try (InputStream in = RelayProfile.class.getResourceAsStream(source)) {
      root =
          (com.fasterxml.jackson.databind.node.ObjectNode)
              dev.ceiling.core.json.Json.mapper().readTree(in);
    }
    root.remove(
        java.util.List.of(
            "metrics_url", "metric_mapping", "positive_controlled", "delay_controls"));
    root.put("contamination_evidence", "client");
    if (defaultLimits) {
      for (com.fasterxml.jackson.databind.JsonNode l : root.get("limiter")) {
        com.fasterxml.jackson.databind.node.ObjectNode setting =
            (com.fasterxml.jackson.databind.node.ObjectNode) l;
        switch (setting.get("name").asText()) {
          case "limiter_events_per_sec" -> setting.put("value", "10");
          case "limiter_window_secs" -> setting.put("value", "5");
          default -> {}
        }
      }
    }
    Path f =
        dir.resolve("reference-no-metrics" + (defaultLimits ? "-default-limits" : "") + ".json");
    Files.writeString(f, dev.ceiling.core.json.Json.mapper().writeValueAsString(root));
    return RelayProfile.load(f);
  }

  /**
   * Windows of 3 s in the experiments of ExperimentIT and ExperimentControlsIT: a metrics scrape
   * may take 10% of the window (SLOW_SCRAPE), and at 1.5 s that was 150 ms, which a busy CI
   * machine's scrapes exceeded in 5 of 12 cells (load average 6). The scrape rule stays Ceiling's;
   * the windows grew.
   *
   * <p>Short cells. The send-lag bound is 250 ms (a tenth of a window): these tests check the
   * verdict on real data, and GeneratorIT checks the generator's self-check; a shared CI machine's
   * scheduler must not decide them. At 25 ms, a full build beside the test (load average 13 on two
   * cores) flagged 7 of 12 cells at 100-200/s generator-bound and the known answer never ran. A
   * late send moves an event by at most the bound; the warm-up runs on the same unbroken schedule,
   * so lateness shifts as many answers into the window as out of it.
   */
  public static SweepOptions quickSweep(Path dir) {
    return SweepOptions.defaults(dir.resolve("journal.jsonl"))
        .withWarmup(Duration.ofMillis(1500))
        .withGrace(Duration.ofSeconds(1))
        .withSendLagBound(Duration.ofMillis(250));
  }
}
