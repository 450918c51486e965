package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.proxy.EchoServer;
import dev.ceiling.verdict.Tost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A link the path never touches: the reference relay's linked profile with a second upstream,
 * 'cache', that the relay is told about and never dials (an echo service stands behind its proxy).
 * Whatever delay the sweep adds to 'cache', no audit entry waits on it, so its wire count is 0
 * turns per entry and its timing fit reads k consistent with 0; the audit path's own link, 'db',
 * swept in the same run the same way, counts its H2 turns. This is the "the path never touches the
 * link" known answer (docs/METHODOLOGY.md) on a path whose ceiling can be measured: with the audit
 * off the relay has no audit ceiling on two cores for a sweep to saturate.
 *
 * <p>In the cli module's two test JVMs, in the package for the sweep's package-private entry
 * points, rather than in the experiment module, whose tests every later module waits on: there its
 * 51 s made one of the three test JVMs (with CeilingRampIT and TwoLinkSweepIT) end 43 s after the
 * other two (7 Dec 2026).
 */
class UnusedLinkSweepIT {
  @TempDir Path dir;

  /**
   * By the wire, which no load can move: over every cell of each link's sweep, 'cache' carried no
   * turn at all while the audit completed entries, and 'db' (the partner, the same proxy code on
   * the same run) several per entry. Unsaturated 1 s cells: nothing here is timed.
   */
  @Test
  void theUnusedLinkCarriesNoTurnPerEntryWhileTheDatabaseLinkCarriesSeveral() throws Exception {
    Path out = dir.resolve("out");
    LinkSweepsResult r;
    try (EchoServer cache = new EchoServer()) {
      r =
          sweep(out, cache.address().getPort())
              .links(List.of("db", "cache"))
              .delaysMs(List.of(1.0, 2.0))
              .repeats(2)
              .duration(Duration.ofSeconds(1))
              .rate(40.0)
              .sweepOptions(quick(out, Duration.ofMillis(500)))
              .runLinks();
    }
    String figures = TwoLinkSweepIT.figures(r);
    System.out.println("UnusedLinkSweepIT: " + figures);
    assertThat(r.report().links())
        .as(figures)
        .extracting(LinkSweepsReport.Row::link)
        .containsExactly("db", "cache");
    double[] cache = turnsAndEntries(r, "cache");
    assertThat(cache[1]).as("audit entries while 'cache' was swept; %s", figures).isGreaterThan(20);
    assertThat(cache[0]).as("turns on 'cache'; %s", figures).isZero();
    assertThat(row(r, "cache").wireTurnsPerEventAllCells()).as(figures).isZero();
    double[] db = turnsAndEntries(r, "db");
    assertThat(db[1]).as("audit entries while 'db' was swept; %s", figures).isGreaterThan(20);
    assertThat(db[0] / db[1]).as("turns per entry on 'db'; %s", figures).isGreaterThan(4);
  }

  /**
   * By the clock, on a quiet machine (bench, docs/PERFORMANCE.md): the timing fit's slope on the
   * unused link is consistent with 0 within the default +-0.5. The in-process delay of 2 ms per
   * exchange holds the ceiling near 70/s at every point (six exchanges and H2's own cost per
   * entry), so 110/s saturates each cell, and the slope is read against a flat line of about 15 ms
   * per entry.
   */
  @Test
  @Tag("quiet-machine")
  void theTimingFitOfTheUnusedLinkIsConsistentWithZero() throws Exception {
    Path out = dir.resolve("timed");
    DelaySweepResult r;
    try (EchoServer cache = new EchoServer()) {
      r =
          sweep(out, cache.address().getPort(), "2")
              .link("cache")
              .expectRoundTrips(0.0)
              .delaysMs(List.of(0.0, 2.0, 4.0))
              .repeats(3)
              .duration(Duration.ofSeconds(2))
              .rate(110.0)
              .sweepOptions(quick(out, Duration.ofSeconds(2)))
              .run();
    }
    String figures = DelaySweepIT.figures(r);
    System.out.println("UnusedLinkSweepIT timing: " + figures);
    assertThat(r.report()).as(figures).isNotNull();
    assertThat(r.report().countCheck()).as(figures).isNotNull();
    assertThat(r.report().countCheck().reading()).as(figures).isEqualTo(Tost.Reading.CONSISTENT);
    assertThat(r.report().wireTurnsPerEvent()).as(figures).isZero();
  }

  private static double[] turnsAndEntries(LinkSweepsResult r, String link) {
    double turns = 0;
    double entries = 0;
    for (DelaySweepCell c : r.sweeps().get(link).report().cells()) {
      if (c.auditEvents() != null) {
        turns += c.link().turns();
        entries += c.auditEvents();
      }
    }
    return new double[] {turns, entries};
  }

  private static LinkSweepsReport.Row row(LinkSweepsResult r, String link) {
    return r.report().links().stream().filter(w -> w.link().equals(link)).findFirst().orElseThrow();
  }

  private DelaySweepOptions.Builder sweep(Path out, int cachePort) throws Exception {
    return sweep(out, cachePort, "0");
  }

  /** The linked profile with 'cache' added, the test's ports, and the in-process delay given. */
  private DelaySweepOptions.Builder sweep(Path out, int cachePort, String exchangeDelayMs)
      throws Exception {
    String json =
        new String(
            RelayProfile.class
                .getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")
                .readAllBytes(),
            StandardCharsets.UTF_8);
    String one = "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:${db_port}\"}]";
    assertThat(json).as("the linked profile's upstreams").contains(one);
    Path profile =
        Files.writeString(
            dir.resolve("unused-link.json"),
            json.replace(
                one,
                "\"upstreams\": [{\"name\": \"db\", \"target\": \"127.0.0.1:${db_port}\"},"
                    + " {\"name\": \"cache\", \"target\": \"127.0.0.1:"
                    + cachePort
                    + "\"}]"));
    return DelaySweep.builder()
        .profile(RelayProfile.load(profile))
        .seed(7)
        .relayOverrides(
            Map.of(
                "port",
                Integer.toString(FreePorts.one()),
                "db_port",
                Integer.toString(FreePorts.one()),
                "calibration_runs",
                "50",
                "queue_capacity",
                "40",
                "exchange_delay_ms",
                exchangeDelayMs))
        .outDir(out);
  }

  private static SweepOptions quick(Path out, Duration warmup) {
    return SweepOptions.defaults(out.resolve("unused.jsonl"))
        .withWarmup(warmup)
        .withGrace(Duration.ofMillis(500))
        .withSendLagBound(Duration.ofMillis(100))
        .withDrainTimeout(Duration.ofSeconds(20));
  }
}
