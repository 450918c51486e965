package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.internal.PidFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in profile against the real reference relay in its own JVM. */
class ReferenceRelayIT {
  @TempDir Path dir;

  @Test
  void builtInProfileBringsUpTheReferenceRelayAndTakesItDown() throws Exception {
    RelayProfile p = RelayProfile.builtIn("reference");
    UpOptions o =
        UpOptions.of(p, "on", dir.resolve("state"))
            .withReset(true)
            .withOverrides(
                Map.of(
                    "port",
                    Integer.toString(Fakes.freePort()),
                    "db_port",
                    Integer.toString(Fakes.freePort()),
                    "calibration_runs",
                    "20",
                    "exchange_delay_ms",
                    "0.5"))
            .withTimeouts(Duration.ofSeconds(90), Duration.ofSeconds(2), Duration.ofSeconds(10));
    RigHandle h = Rig.up(o);
    long pid = h.descriptor().relayPid();
    try {
      RigDescriptor d = h.descriptor();
      Path jar = ReferenceRelayJar.locate();
      assertThat(d.relayCommand())
          .containsSubsequence("-jar", jar.toString())
          .contains(d.rigId(), "--reset")
          .containsSubsequence("--audit", "on")
          .containsSubsequence("--limiter-events-per-sec", "1000000")
          .containsSubsequence("--audit-exchange-delay-ms", "0.5");
      // The relay's own READY report lands in relay_info.
      assertThat(d.relayInfo()).containsEntry("audit", "on").containsKey("exchange_cost_ms");
      assertThat(d.relayInfo()).containsKey("predicted_worker_ceiling_per_s");
      // The audit path's shape, from the profile's parameters, and both of its predictions.
      assertThat(d.relayCommand())
          .containsSubsequence("--audit-exchanges", "6")
          .containsSubsequence("--audit-workers", "1")
          .containsSubsequence("--audit-lock", "none");
      assertThat(d.relayInfo())
          .containsEntry("audit_lock", "none")
          .containsEntry("predicted_lock_ceiling_per_s", "NA")
          .containsKey("predicted_workers_ceiling_per_s");
      // The descriptor digests the relay's own artifact, not the rig's code.
      assertThat(d.relayBinaryDigest())
          .isEqualTo(
              java.util.HexFormat.of()
                  .formatHex(
                      java.security.MessageDigest.getInstance("SHA-256")
                          .digest(java.nio.file.Files.readAllBytes(jar))));
      assertThat(d.databaseReset()).isTrue();
      String metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(d.metricsUrl())).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      // Every mapped series' name is exposed, so the mapping is not fiction.
      for (String selector : d.metricMapping().values()) {
        String name =
            selector.contains("{") ? selector.substring(0, selector.indexOf('{')) : selector;
        assertThat(metrics).as(selector).contains(name);
      }
      assertThat(Rig.status(h.stateDir()).state()).isEqualTo(StatusResult.State.RUNNING_OURS);
      assertThat(h.stop().outcome()).isEqualTo(DownResult.Outcome.STOPPED);
      assertThat(Fakes.alive(pid)).isFalse();
      assertThat(PidFile.in(h.stateDir())).doesNotExist();
    } finally {
      Fakes.kill(pid);
    }
  }
}
