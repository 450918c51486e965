package dev.ceiling.generator;

import dev.ceiling.core.model.LatencySummary;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Segment reports built by hand with known counts and known raw latencies, for merge tests. */
final class SegmentReports {
  static final Instant START = Instant.parse("2026-12-01T06:30:00Z");
  static final String URL = "ws://127.0.0.1:7777/";

  private SegmentReports() {}

  /** A histogram (µs) holding the given values. */
  static Histogram us(long... values) {
    Histogram h = LatencySummary.newHistogram();
    for (long v : values) {
      h.recordValue(v);
    }
    return h;
  }

  /**
   * One target's result: {@code planned} slots of which {@code sent} went out, {@code accepted}
   * accepted and {@code rejected} rejected (the rest unacknowledged); the latencies are given raw.
   */
  static GeneratorReport.Result result(
      double offered,
      long planned,
      long sent,
      long accepted,
      long rejected,
      Histogram lag,
      Histogram scheduled,
      String boundReason) {
    Map<String, Object> f = new HashMap<>();
    f.put("offered_per_s", offered);
    f.put("slots_planned", planned);
    f.put("slots_sent", sent);
    f.put("slots_unsent_late", planned - sent);
    f.put("attempted", sent);
    f.put("accepted", accepted);
    f.put("rejected", rejected);
    f.put("rejected_by_prefix", rejected == 0 ? Map.of() : Map.of("rate-limited", rejected));
    f.put("first_rejection", rejected == 0 ? null : "rate-limited: slow down");
    f.put("unacknowledged", sent - accepted - rejected);
    f.put("accepted_in_window", accepted);
    f.put("accepted_in_window_per_s", accepted / 1.0);
    f.put("accepted_in_window_over_offered", accepted / offered);
    f.put("send_lag", LatencySummary.of(lag));
    f.put("service", LatencySummary.of(scheduled));
    f.put("scheduled", LatencySummary.of(scheduled));
    f.put("generator_bound", boundReason != null);
    f.put("generator_bound_reason", boundReason);
    return Results.of(f);
  }

  /** A one-target report of segment i/n of a rate/s schedule of 1 s, started at {@link #START}. */
  static GeneratorReport report(int i, int n, double rate, GeneratorReport.Result r) {
    Segment seg = new Segment(i, n);
    return new GeneratorReport(
        GeneratorReport.SCHEMA_VERSION,
        "generate 1.0 s, segment "
            + seg
            + ", cap 10000/conn, start at "
            + START
            + ": "
            + URL
            + " at "
            + rate
            + "/s",
        seg.toString(),
        START,
        "wall: test",
        0.05 * (i + 1),
        START,
        1.0,
        1.0,
        0.01,
        2,
        0,
        0.1 * (i + 1),
        0.5,
        null,
        0.3 * (i + 1),
        1 / (0.1 * (i + 1)),
        r.generatorBound(),
        r.generatorBoundReason(),
        null,
        r,
        List.of(new GeneratorReport.TargetReport("a", URL, null, rate, 2, 2, 1.0, r)));
  }

  static SegmentMerge.Input input(String source, GeneratorReport r) {
    return new SegmentMerge.Input(source, r);
  }
}
