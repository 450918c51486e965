package com.example.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.prom.Reading;
import dev.ceiling.prom.Selector;
import dev.ceiling.prom.Snapshot;
import dev.ceiling.junit.WithRelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The relay comes up through the rig profile, answers its health URL and exposes the metrics the
 * profile maps. The extension takes it down after the class, also if a test fails.
 */
@WithRelay(profile = "reference", arm = "on", params = {"exchange_delay_ms=0.5"})
class RelayAnswersTest {

  @Test
  void answersHealthAndExposesItsMetrics(RigDescriptor relay, List<Target> targets)
      throws Exception {
    HttpResponse<Void> health =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(relay.healthUrl())).build(),
                HttpResponse.BodyHandlers.discarding());
    assertEquals(200, health.statusCode(), relay.healthUrl());
    assertEquals(2, targets.size(), "the reference profile publishes into two communities");

    // The scraper works on any Prometheus text endpoint; the profile says which series is which.
    MetricsScraper scraper =
        new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(5), 1 << 20);
    Snapshot metrics = scraper.scrape(URI.create(relay.metricsUrl()));
    Reading accepted = metrics.read(Selector.parse(relay.metricMapping().get("events_accepted")));
    assertTrue(accepted.exposed(), "events_accepted is exposed: " + accepted);
    assertEquals(0.0, accepted.value(), "a fresh database has accepted nothing yet");
  }
}
