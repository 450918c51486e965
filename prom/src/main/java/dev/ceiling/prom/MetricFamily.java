package dev.ceiling.prom;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * All samples of one metric as grouped in an exposition: for a histogram {@code h} that is every
 * {@code h_bucket}, {@code h_count} and {@code h_sum}; for a summary {@code s} every {@code
 * s{quantile=...}}, {@code s_count} and {@code s_sum}.
 *
 * @param name the family name as in its TYPE/HELP lines (or the sample name if it had neither)
 * @param type one of {@code counter}, {@code gauge}, {@code histogram}, {@code summary}, {@code
 *     untyped}; a family without a TYPE line is {@code untyped}
 * @param help the HELP text unescaped, or {@code null} when the family had no HELP line
 * @param samples the samples in exposition order; immutable
 */
public record MetricFamily(String name, String type, String help, List<Sample> samples) {

  /** The types text format 0.0.4 knows. */
  public static final Set<String> TYPES =
      Set.of("counter", "gauge", "histogram", "summary", "untyped");

  public MetricFamily {
    if (!Names.isMetricName(name)) {
      throw new IllegalArgumentException(
          "name must match [a-zA-Z_:][a-zA-Z0-9_:]*, got " + Names.quote(name));
    }
    if (type == null || !TYPES.contains(type)) {
      throw new IllegalArgumentException(
          "type must be one of counter, gauge, histogram, summary, untyped, got "
              + Names.quote(type));
    }
    Objects.requireNonNull(samples, "samples must not be null (use an empty list)");
    samples = List.copyOf(samples);
  }
}
