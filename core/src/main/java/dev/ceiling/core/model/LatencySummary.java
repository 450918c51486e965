package dev.ceiling.core.model;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Percentiles of one latency distribution plus the raw histogram they were read from, so that
 * repeats and segments can be merged and anything recomputed later.
 *
 * <p>The histogram records <b>microseconds</b>, with 3 significant digits, and is stored as
 * HdrHistogram's compressed encoding in base64. Percentiles are in milliseconds and are {@code
 * null} when {@code count} is 0: an empty distribution has no median, and 0 would be a lie.
 *
 * @param count number of recorded values, >= 0
 * @param p50Ms median in ms, or null when empty
 * @param p90Ms 90th percentile in ms, or null when empty
 * @param p99Ms 99th percentile in ms, or null when empty
 * @param p999Ms 99.9th percentile in ms, or null when empty
 * @param maxMs largest recorded value in ms, or null when empty
 * @param histogramUsBase64 the compressed HdrHistogram (values in µs), base64
 */
public record LatencySummary(
    long count,
    Double p50Ms,
    Double p90Ms,
    Double p99Ms,
    Double p999Ms,
    Double maxMs,
    String histogramUsBase64) {

  /** Highest trackable value: one hour in microseconds; larger values are clamped by callers. */
  public static final long HIGHEST_TRACKABLE_US = 3_600_000_000L;

  public static final int SIGNIFICANT_DIGITS = 3;

  public LatencySummary {
    Checks checks =
        new Checks().nonNegative("count", count).notBlank("histogram_us_base64", histogramUsBase64);
    List<Double> ps = java.util.Arrays.asList(p50Ms, p90Ms, p99Ms, p999Ms, maxMs);
    checks
        .require(
            count != 0 || ps.stream().allMatch(p -> p == null),
            "percentiles must be null when count is 0, got " + ps)
        .require(
            count <= 0 || ps.stream().allMatch(p -> p != null),
            "percentiles must be present when count > 0, got " + ps);
    for (Double p : ps) {
      checks.nonNegativeOrNull("latency percentile (ms)", p);
    }
    // The order is only defined on present percentiles.
    if (count > 0 && ps.stream().allMatch(p -> p != null)) {
      checks.require(
          p50Ms <= p90Ms && p90Ms <= p99Ms && p99Ms <= p999Ms && p999Ms <= maxMs,
          "percentiles must be non-decreasing p50 <= p90 <= p99 <= p99.9 <= max, got " + ps);
    }
    checks.orThrow();
  }

  /** A fresh histogram with the range and precision every summary uses. */
  public static Histogram newHistogram() {
    return new Histogram(HIGHEST_TRACKABLE_US, SIGNIFICANT_DIGITS);
  }

  /** Summarizes a histogram of microsecond values. The histogram is not modified. */
  public static LatencySummary of(Histogram us) {
    long n = us.getTotalCount();
    ByteBuffer buf = ByteBuffer.allocate(us.getNeededByteBufferCapacity());
    int len = us.encodeIntoCompressedByteBuffer(buf);
    String b64 = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
    if (n == 0) {
      return new LatencySummary(0, null, null, null, null, null, b64);
    }
    return new LatencySummary(
        n,
        ms(us.getValueAtPercentile(50)),
        ms(us.getValueAtPercentile(90)),
        ms(us.getValueAtPercentile(99)),
        ms(us.getValueAtPercentile(99.9)),
        ms(us.getMaxValue()),
        b64);
  }

  /** Decodes the raw histogram (values in µs). */
  public Histogram histogram() {
    byte[] bytes = Base64.getDecoder().decode(histogramUsBase64);
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    } catch (DataFormatException e) {
      throw new IllegalStateException("histogram_us_base64 is not a compressed HdrHistogram", e);
    }
  }

  /** Merges summaries by adding their raw histograms, never by averaging percentiles. */
  public static LatencySummary merge(List<LatencySummary> parts) {
    Histogram sum = newHistogram();
    for (LatencySummary p : parts) {
      sum.add(p.histogram());
    }
    return of(sum);
  }

  private static double ms(long us) {
    return us / 1000.0;
  }
}
