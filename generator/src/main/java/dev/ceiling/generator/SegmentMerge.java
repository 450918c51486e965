package dev.ceiling.generator;

import dev.ceiling.core.model.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Merges the reports of segments 0/N .. (N-1)/N of one schedule into the report one process
 * offering the whole schedule would have written. Exact: counts are summed and latencies are merged
 * by adding the raw HdrHistograms each report carries, never by averaging percentiles (the p99 of a
 * union is not the mean of the parts' p99s). The self-check is ORed, each reason kept with its
 * segment.
 *
 * <p>Refused, listing every problem at once, unless the inputs are exactly segments 0..N-1 of one
 * configuration started at one {@code --start-at} instant, each given once.
 */
public final class SegmentMerge {
  private SegmentMerge() {}

  /** One segment report and where it came from (a file name), for the error messages. */
  public record Input(String source, GeneratorReport report) {
    public Input {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(report, "report");
    }
  }

  /**
   * Merges the segments.
   *
   * @throws SegmentMergeException listing every reason the inputs are not one schedule's segments
   */
  public static GeneratorReport merge(List<Input> inputs) throws SegmentMergeException {
    return merge(inputs, LatencySummary::merge);
  }

  /** As {@link #merge(List)}, with the latency merge as a seam for the tests' mutant. */
  static GeneratorReport merge(
      List<Input> inputs, Function<List<LatencySummary>, LatencySummary> latencies)
      throws SegmentMergeException {
    List<Input> ordered = SegmentChecks.ordered(inputs);
    GeneratorReport first = ordered.get(0).report();
    int n = ordered.size();
    List<String> labels = new ArrayList<>();
    for (Input in : ordered) {
      labels.add("segment " + in.report().segment());
    }
    double durS = first.durationRequestedS();
    List<GeneratorReport.TargetReport> targets = new ArrayList<>();
    double offeredTotal = 0;
    for (int t = 0; t < first.targets().size(); t++) {
      GeneratorReport.TargetReport ft = first.targets().get(t);
      List<GeneratorReport.Result> parts = new ArrayList<>();
      // Each process applied its own bound (its own wake floor): the merged one is the loosest.
      double boundMs = ft.sendLagBoundMs();
      for (Input in : ordered) {
        parts.add(in.report().targets().get(t).result());
        boundMs = Math.max(boundMs, in.report().targets().get(t).sendLagBoundMs());
      }
      offeredTotal += ft.ratePerS();
      targets.add(
          new GeneratorReport.TargetReport(
              ft.community(),
              ft.url(),
              ft.hostHeader(),
              ft.ratePerS(),
              ft.connections(),
              ft.identities(),
              boundMs,
              GeneratorReport.Result.sum(parts, labels, ft.ratePerS(), durS, latencies)));
    }
    List<GeneratorReport.Result> aggParts = new ArrayList<>();
    for (Input in : ordered) {
      aggParts.add(in.report().aggregate());
    }
    GeneratorReport.Result agg =
        GeneratorReport.Result.sum(aggParts, labels, offeredTotal, durS, latencies);
    Double busy = null;
    Double headroom = null;
    Double cpu = 0.0;
    Double firstLate = null;
    Double runQueue = null;
    Double wakeFloor = null;
    double elapsed = 0;
    double grace = 0;
    int threads = 0;
    Set<Integer> sources = new LinkedHashSet<>();
    Set<String> clockSources = new LinkedHashSet<>();
    for (Input in : ordered) {
      GeneratorReport r = in.report();
      busy = max(busy, r.senderBusyFraction());
      headroom = r.headroom() == null ? headroom : min(headroom, r.headroom());
      cpu = cpu == null || r.senderCpuS() == null ? null : cpu + r.senderCpuS();
      firstLate = max(firstLate, r.firstSlotLateMs());
      runQueue = max(runQueue, r.senderRunQueueWaitS());
      wakeFloor = max(wakeFloor, r.wakeFloorP99Ms());
      elapsed = Math.max(elapsed, r.durationElapsedS());
      grace = Math.max(grace, r.graceWaitedS());
      threads += r.senderThreads();
      sources.add(r.sourceAddresses());
      clockSources.add(r.clockSource());
    }
    String clockSource =
        clockSources.size() == 1 ? clockSources.iterator().next() : perSegment(ordered);
    return new GeneratorReport(
        GeneratorReport.SCHEMA_VERSION,
        "merged from " + n + " segments: " + SegmentChecks.withoutSegment(first),
        Segment.WHOLE.toString(),
        first.startAt(),
        clockSource,
        firstLate,
        first.clockStart(),
        durS,
        elapsed,
        grace,
        threads,
        // One configuration line means one list of addresses, which every process bound alike; a
        // mix of recorded and unrecorded (null) is not one figure.
        sources.size() == 1 ? sources.iterator().next() : null,
        busy,
        cpu,
        runQueue,
        wakeFloor,
        headroom,
        agg.generatorBound(),
        agg.generatorBoundReason(),
        incomplete(ordered),
        agg,
        targets);
  }

  /** Each stopped segment's reason, labelled; null when every segment completed. */
  private static String incomplete(List<Input> ordered) {
    List<String> out = new ArrayList<>();
    for (Input in : ordered) {
      if (in.report().incomplete() != null) {
        out.add("segment " + in.report().segment() + ": " + in.report().incomplete());
      }
    }
    return out.isEmpty() ? null : String.join("; ", out);
  }

  private static String perSegment(List<Input> ordered) {
    List<String> out = new ArrayList<>();
    for (Input in : ordered) {
      out.add("segment " + in.report().segment() + ": " + in.report().clockSource());
    }
    return String.join("; ", out);
  }

  private static Double min(Double a, double b) {
    return a == null ? Double.valueOf(b) : Double.valueOf(Math.min(a, b));
  }

  private static Double max(Double a, Double b) {
    // Written out: a conditional expression mixing Double and double would unbox a null.
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Double.valueOf(Math.max(a, b));
  }
}
