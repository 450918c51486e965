package com.example.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.junit.CeilingAssertions;
import dev.ceiling.rig.RelayProfile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The whole A/B experiment from a test: the audit log (arm "on") must be what limits ingest.
 *
 * <p>The grid is tiny so the test takes about two minutes: the reference relay's audit
 * worker, at 4 ms per database exchange (six per entry), completes roughly 40 entries/s, which its
 * own calibration predicts at start-up. Both rates lie above that ceiling: the 50-entry audit
 * queue fills, after which the treatment accepts only what the worker completes while the control
 * accepts everything. Each rate can establish the result alone, so a rate whose cells happen to be
 * exactly constant in both arms (a clock-like worker completes the same count in every window; the
 * verdict then refuses that rate by design, since zero variance is no estimate of sampling error)
 * cannot fail the test by itself.
 */
class AuditLogCeilingTest {

  @Test
  void theAuditLogLimitsIngest() throws Exception {
    // A directory of this run's own (target/ceiling-reports/<UTC time>): the next `mvn verify`
    // starts afresh instead of meeting this run's journals. Without outDir(...) the default is
    // the same under ceiling-reports/.
    Path out = Experiment.newRunDirectory(Path.of("target", "ceiling-reports"));
    int[] ports = freePorts(2);
    ExperimentResult result =
        Experiment.builder()
            .profile(RelayProfile.builtIn("reference"))
            .relayOverrides(
                Map.of(
                    "exchange_delay_ms", "4",
                    "queue_capacity", "50",
                    "port", Integer.toString(ports[0]),
                    "db_port", Integer.toString(ports[1])))
            // 1.5 and 2 times the upper end of the worker ceiling the relay predicts (calibrated).
            .ratesFromCalibration(1.5, 2.0)
            // A scrape may take 10% of the window before the cell is excluded; on a CI machine
            // whose other builds ran five tasks per CPU, scrapes took 0.3-0.6 s and 3 s windows
            // lost 7 of 16 cells.
            .duration(Duration.ofSeconds(5))
            // Four repeats: saturated, the treatment accepts what a clock-like worker completes in
            // the window, often the same integer count in every repeat.
            .repeats(4)
            .sweepOptions(
                // The journal path here is replaced by one per arm in the output directory.
                SweepOptions.defaults(out.resolve("journal.jsonl"))
                    .withWarmup(Duration.ofMillis(1500))
                    // A shared, busy CI box's scheduler must not flag cells generator-bound here:
                    // the rates are tens per second (a 4 ms exchange delay), and a tenth of the
                    // window is allowed as send lag.
                    .withSendLagBound(Duration.ofMillis(500)))
            .outDir(out)
            .installShutdownHook(false)
            .run();

    System.out.println("report: " + result.reportJson());
    assertEquals(List.of(), result.problems(), "infrastructure and completeness problems");
    CeilingAssertions.assertLimitsIngest(result.report());
  }

  /** Ports for this run's relays, so the test does not collide with anything on fixed ports. */
  private static int[] freePorts(int n) throws IOException {
    ServerSocket[] held = new ServerSocket[n];
    int[] ports = new int[n];
    try {
      for (int i = 0; i < n; i++) {
        held[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ports[i] = held[i].getLocalPort();
      }
    } finally {
      for (ServerSocket s : held) {
        if (s != null) {
          s.close();
        }
      }
    }
    return ports;
  }
}
