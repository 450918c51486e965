package dev.ceiling.rig;

import java.net.URI;
import java.util.Objects;

/**
 * A running relay's delay control ({@link RelayProfile.DelayControlTemplate}), its URLs expanded:
 * {@code PUT} the added delay in ms to {@code url}; read the delayed round trips from {@code
 * turnsMetric} (and how late the delays ended from {@code latenessMetric}) on {@code metricsUrl}.
 *
 * @param name the link's name
 * @param url the loopback URL whose PUT sets the added delay
 * @param turnsMetric selector of the relay's counter of delayed round trips
 * @param latenessMetric selector of the relay's counter of the delays' summed lateness, seconds, or
 *     null
 * @param metricsUrl where the counters are scraped
 */
public record DelayControl(
    String name, URI url, String turnsMetric, String latenessMetric, URI metricsUrl) {
  public DelayControl {
    Objects.requireNonNull(name, "name must not be null");
    Objects.requireNonNull(url, "url must not be null");
    Objects.requireNonNull(turnsMetric, "turns_metric must not be null");
    Objects.requireNonNull(metricsUrl, "metrics_url must not be null");
  }
}
