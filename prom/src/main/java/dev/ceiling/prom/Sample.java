package dev.ceiling.prom;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One exposed series value: the sample's own name (for histograms and summaries that includes the
 * {@code _bucket}/{@code _count}/{@code _sum} suffix), its labels, its value and its optional
 * timestamp.
 *
 * @param name the sample name, {@code [a-zA-Z_:][a-zA-Z0-9_:]*}
 * @param labels label names ({@code [a-zA-Z_][a-zA-Z0-9_]*}) to values; stored sorted by name and
 *     immutable
 * @param value the value; may be NaN or infinite, as the format allows
 * @param timestampMs milliseconds since the epoch as exposed, or {@code null} when the line had
 *     none
 */
public record Sample(String name, Map<String, String> labels, double value, Long timestampMs) {

  public Sample {
    if (!Names.isMetricName(name)) {
      throw new IllegalArgumentException(
          "name must match [a-zA-Z_:][a-zA-Z0-9_:]*, got " + Names.quote(name));
    }
    Objects.requireNonNull(labels, "labels must not be null (use an empty map)");
    labels = sortedCopy("labels", labels);
  }

  static SortedMap<String, String> sortedCopy(String field, Map<String, String> labels) {
    TreeMap<String, String> sorted = new TreeMap<>();
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (!Names.isLabelName(e.getKey())) {
        throw new IllegalArgumentException(
            field + " names must match [a-zA-Z_][a-zA-Z0-9_]*, got " + Names.quote(e.getKey()));
      }
      if (e.getValue() == null) {
        throw new IllegalArgumentException(
            field + " values must not be null, got null for " + e.getKey());
      }
      sorted.put(e.getKey(), e.getValue());
    }
    return Collections.unmodifiableSortedMap(sorted);
  }

  /** This series in exposition syntax, e.g. {@code foo_total{reason="quota"}} (no value). */
  public String series() {
    return Names.series(name, labels);
  }
}
