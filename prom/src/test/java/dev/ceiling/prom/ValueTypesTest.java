package dev.ceiling.prom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Compact-constructor checks: each message states the rule and the value. */
class ValueTypesTest {

  @Test
  void sampleChecksNameAndLabels() {
    assertThatThrownBy(() -> new Sample("a-b", Map.of(), 1, null))
        .hasMessage("name must match [a-zA-Z_:][a-zA-Z0-9_:]*, got 'a-b'");
    assertThatThrownBy(() -> new Sample("a", Map.of("1x", "v"), 1, null))
        .hasMessage("labels names must match [a-zA-Z_][a-zA-Z0-9_]*, got '1x'");
    Map<String, String> withNull = new HashMap<>();
    withNull.put("k", null);
    assertThatThrownBy(() -> new Sample("a", withNull, 1, null))
        .hasMessage("labels values must not be null, got null for k");
    Sample s = new Sample("a", Map.of("b", "x\"\\\ny", "a", "1"), 1, null);
    assertThat(s.series()).isEqualTo("a{a=\"1\",b=\"x\\\"\\\\\\ny\"}");
  }

  @Test
  void familyChecksType() {
    assertThatThrownBy(() -> new MetricFamily("a", "info", null, List.of()))
        .hasMessage("type must be one of counter, gauge, histogram, summary, untyped, got 'info'");
    assertThat(new MetricFamily("a", "gauge", null, List.of()).samples()).isEmpty();
  }

  @Test
  void readingKeepsNotExposedApartFromZero() {
    Selector s = Selector.of("a");
    assertThatThrownBy(() -> new Reading(s, 0, 5.0))
        .hasMessage("value must be 0 when no series matched (not exposed), got 5.0");
    assertThatThrownBy(() -> new Reading(s, -1, 0.0))
        .hasMessage("series_matched must be >= 0, got -1");
    Reading zero = new Reading(s, 1, 0.0);
    Reading absent = new Reading(s, 0, 0.0);
    assertThat(zero).isNotEqualTo(absent);
    assertThat(zero.value()).isZero();
    assertThat(zero.toString()).isEqualTo("a = 0.0 (1 series)");
  }

  @Test
  void scraperChecksLimits() {
    assertThatThrownBy(() -> new MetricsScraper(Duration.ZERO, Duration.ofSeconds(1), 1))
        .hasMessage("connect_timeout must be > 0, got PT0S");
    assertThatThrownBy(() -> new MetricsScraper(Duration.ofSeconds(1), Duration.ofSeconds(-1), 1))
        .hasMessage("read_timeout must be > 0, got PT-1S");
    assertThatThrownBy(() -> new MetricsScraper(Duration.ofSeconds(1), Duration.ofSeconds(1), 0))
        .hasMessage("max_body_bytes must be >= 1, got 0");
    MetricsScraper ok = new MetricsScraper(Duration.ofSeconds(1), Duration.ofSeconds(1), 1);
    assertThatThrownBy(() -> ok.scrape(java.net.URI.create("ftp://x/metrics")))
        .hasMessage("metrics_url must be an http:// or https:// URL, got ftp://x/metrics");
  }
}
