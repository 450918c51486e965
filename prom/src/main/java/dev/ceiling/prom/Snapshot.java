package dev.ceiling.prom;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scrape: where and when it was taken and every family it returned. Immutable and thread-safe.
 */
public final class Snapshot {
  private final URI source;
  private final Instant takenAt;
  private final List<MetricFamily> families;
  private final Map<String, List<Sample>> samplesByName;

  /**
   * @param source the URL scraped (or any URI naming where the text came from)
   * @param takenAt when the response was complete
   * @param families the parsed families
   */
  public Snapshot(URI source, Instant takenAt, List<MetricFamily> families) {
    this.source = Objects.requireNonNull(source, "source must not be null");
    this.takenAt = Objects.requireNonNull(takenAt, "taken_at must not be null");
    this.families = List.copyOf(Objects.requireNonNull(families, "families must not be null"));
    Map<String, List<Sample>> index = new HashMap<>();
    for (MetricFamily f : this.families) {
      for (Sample s : f.samples()) {
        index.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
      }
    }
    index.replaceAll((k, v) -> List.copyOf(v));
    this.samplesByName = Map.copyOf(index);
  }

  /** Parses {@code body} and stamps it; for text obtained other than by {@link MetricsScraper}. */
  public static Snapshot parse(URI source, Instant takenAt, String body) throws MetricsException {
    return new Snapshot(source, takenAt, PrometheusText.parse(body));
  }

  public URI source() {
    return source;
  }

  public Instant takenAt() {
    return takenAt;
  }

  public List<MetricFamily> families() {
    return families;
  }

  /** Every series the selector matches, in exposition order. */
  public List<Sample> matching(Selector selector) {
    List<Sample> out = new ArrayList<>();
    for (Sample s : samplesByName.getOrDefault(selector.name(), List.of())) {
      if (selector.matches(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /** The SUM over all matching series (e.g. across communities), or not exposed. */
  public Reading read(Selector selector) {
    List<Sample> matched = matching(selector);
    if (matched.isEmpty()) {
      return Reading.notExposed(selector);
    }
    double sum = 0;
    for (Sample s : matched) {
      sum += s.value();
    }
    return new Reading(selector, matched.size(), sum);
  }

  @Override
  public String toString() {
    return "Snapshot[" + source + " at " + takenAt + ", " + families.size() + " families]";
  }
}
