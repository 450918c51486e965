package dev.ceiling.experiment;

import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.prom.Reading;
import dev.ceiling.prom.Selector;
import dev.ceiling.prom.Snapshot;
import dev.ceiling.rig.DelayControl;
import dev.ceiling.rig.proxy.LinkCounters;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A delay the relay injects itself ({@link DelayControl}): the added delay is PUT to the control's
 * URL, and the turns are the relay's own counter of delayed round trips. No bytes or connections
 * are counted, which only a proxy sees. When the relay counts how late its delays ended, each
 * delayed round trip is reported as the two holds (one each way) a proxy makes of one, with that
 * lateness split between them, so the sweep's realized delay reads the same for both kinds of link:
 * the planned delay plus the lateness once per round trip ({@link DelaySweepPoint#fitX}).
 */
final class ControlLink implements DelayLink {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final DelayControl control;
  private final MetricsScraper scraper;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  ControlLink(DelayControl control, MetricsScraper scraper) {
    this.control = control;
    this.scraper = scraper;
  }

  @Override
  public void setDelay(Duration delay) throws IOException {
    String millis = BigDecimal.valueOf(delay.toNanos(), 6).stripTrailingZeros().toPlainString();
    HttpResponse<String> r;
    try {
      r =
          http.send(
              HttpRequest.newBuilder(control.url())
                  .timeout(TIMEOUT)
                  .PUT(HttpRequest.BodyPublishers.ofString(millis))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while setting link '" + control.name() + "'s delay", e);
    }
    if (r.statusCode() != 200) {
      throw new IOException(
          "PUT "
              + millis
              + " ms to "
              + control.url()
              + " (link '"
              + control.name()
              + "') answered "
              + r.statusCode()
              + ": "
              + r.body().strip());
    }
  }

  @Override
  public LinkCounters counters() throws IOException {
    Snapshot s;
    try {
      s = scraper.scrape(control.metricsUrl());
    } catch (MetricsException e) {
      throw new IOException(
          "cannot read link '" + control.name() + "'s counters: " + e.getMessage(), e);
    }
    long turns = Math.round(count(s, "turns", control.turnsMetric()));
    if (control.latenessMetric() == null) {
      return new LinkCounters(0, 0, turns, 0, 0, 0, 0);
    }
    long lateNanos = Math.round(count(s, "lateness", control.latenessMetric()) * 1e9);
    return new LinkCounters(0, 0, turns, 0, 0, 2 * turns, lateNanos);
  }

  /** The counter {@code selector} in {@code s}: exposed, finite and not negative. */
  private double count(Snapshot s, String what, String selector) throws IOException {
    Reading r;
    try {
      r = s.read(Selector.parse(selector));
    } catch (MetricsException e) {
      throw new IOException(
          "link '" + control.name() + "': bad " + what + " selector: " + e.getMessage(), e);
    }
    if (!r.exposed() || !(r.value() >= 0) || Double.isInfinite(r.value())) {
      throw new IOException(
          "link '"
              + control.name()
              + "': the relay's "
              + what
              + " counter "
              + selector
              + " at "
              + control.metricsUrl()
              + " is "
              + (r.exposed() ? "not a count: " + r.value() : "not exposed"));
    }
    return r.value();
  }
}
