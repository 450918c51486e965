package dev.ceiling.generator;

import dev.ceiling.core.model.LatencySummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The refusals of {@link SegmentMerge}: every reason a set of reports is not segments 0..N-1 of one
 * configuration and one start instant, each exactly once, found in one pass and reported together.
 */
final class SegmentChecks {
  private SegmentChecks() {}

  /** The configuration line with this report's own segment taken out, for comparing segments. */
  static String withoutSegment(GeneratorReport r) {
    return r.config().replace(", segment " + r.segment() + ",", ",");
  }

  /**
   * The inputs ordered by segment index.
   *
   * @throws SegmentMergeException with every problem found
   */
  static List<SegmentMerge.Input> ordered(List<SegmentMerge.Input> inputs)
      throws SegmentMergeException {
    List<String> p = new ArrayList<>();
    if (inputs == null || inputs.isEmpty()) {
      throw new SegmentMergeException(List.of("no segment reports given"));
    }
    Map<Integer, List<String>> byCount = new TreeMap<>();
    Map<Integer, List<SegmentMerge.Input>> byIndex = new TreeMap<>();
    for (SegmentMerge.Input in : inputs) {
      Segment s;
      try {
        s = Segment.parse(in.report().segment());
      } catch (IllegalArgumentException e) {
        p.add(in.source() + ": " + e.getMessage());
        continue;
      }
      byCount.computeIfAbsent(s.count(), k -> new ArrayList<>()).add(in.source() + " (" + s + ")");
      byIndex.computeIfAbsent(s.index(), k -> new ArrayList<>()).add(in);
    }
    if (byCount.size() > 1) {
      List<String> parts = new ArrayList<>();
      byCount.forEach((n, sources) -> parts.add("N=" + n + ": " + String.join(", ", sources)));
      p.add("the inputs split the schedule differently: " + String.join("; ", parts));
    } else if (byCount.size() == 1) {
      int n = byCount.keySet().iterator().next();
      for (int i = 0; i < n; i++) {
        List<SegmentMerge.Input> at = byIndex.get(i);
        if (at == null) {
          p.add("segment " + i + "/" + n + " is missing");
        } else if (at.size() > 1) {
          List<String> sources = new ArrayList<>();
          at.forEach(in -> sources.add(in.source()));
          p.add(
              "segment "
                  + i
                  + "/"
                  + n
                  + " is given "
                  + at.size()
                  + " times: "
                  + String.join(", ", sources));
        }
      }
    }
    SegmentMerge.Input first = inputs.get(0);
    GeneratorReport f = first.report();
    for (int k = 0; k < inputs.size(); k++) {
      SegmentMerge.Input in = inputs.get(k);
      GeneratorReport r = in.report();
      String who = in.source() + " (segment " + r.segment() + ")";
      if (r.startAt() == null) {
        p.add(
            who
                + " was not started with --start-at: its clock started on its own, so its slots"
                + " do not interleave with the others'");
      } else if (f.startAt() != null && !r.startAt().equals(f.startAt())) {
        p.add(differs(who, "start instant", r.startAt(), first.source(), f.startAt()));
      }
      if (k == 0) {
        continue;
      }
      if (!withoutSegment(r).equals(withoutSegment(f))) {
        p.add(differs(who, "configuration", withoutSegment(r), first.source(), withoutSegment(f)));
      }
      if (r.durationRequestedS() != f.durationRequestedS()) {
        p.add(
            differs(
                who,
                "duration_requested_s",
                r.durationRequestedS(),
                first.source(),
                f.durationRequestedS()));
      }
      if (!sameInstant(r.clockStart(), f.clockStart())) {
        p.add(differs(who, "clock_start", r.clockStart(), first.source(), f.clockStart()));
      }
      if (!targets(r).equals(targets(f))) {
        p.add(differs(who, "targets", targets(r), first.source(), targets(f)));
      }
    }
    for (SegmentMerge.Input in : inputs) {
      histograms(in, p);
    }
    if (!p.isEmpty()) {
      throw new SegmentMergeException(p);
    }
    List<SegmentMerge.Input> out = new ArrayList<>();
    byIndex.values().forEach(l -> out.add(l.get(0)));
    return out;
  }

  private static boolean sameInstant(Instant a, Instant b) {
    return Objects.equals(a, b);
  }

  private static String differs(
      String who, String what, Object value, String firstSource, Object firstValue) {
    return who + ": " + what + " " + value + " differs from " + firstSource + "'s " + firstValue;
  }

  private static List<String> targets(GeneratorReport r) {
    List<String> out = new ArrayList<>();
    for (GeneratorReport.TargetReport t : r.targets()) {
      out.add(
          t.community()
              + " "
              + t.url()
              + " host="
              + t.hostHeader()
              + " rate="
              + t.ratePerS()
              + " conns="
              + t.connections()
              + " identities="
              + t.identities());
    }
    return out;
  }

  /** Every raw histogram decodes and holds as many values as its summary says. */
  private static void histograms(SegmentMerge.Input in, List<String> p) {
    GeneratorReport r = in.report();
    check(in.source(), "aggregate", r.aggregate(), p);
    for (int t = 0; t < r.targets().size(); t++) {
      check(in.source(), "targets[" + t + "]", r.targets().get(t).result(), p);
    }
  }

  private static void check(String source, String where, GeneratorReport.Result r, List<String> p) {
    check(source, where + ".send_lag", r.sendLag(), p);
    check(source, where + ".service", r.service(), p);
    check(source, where + ".scheduled", r.scheduled(), p);
  }

  private static void check(String source, String where, LatencySummary s, List<String> p) {
    try {
      long decoded = s.histogram().getTotalCount();
      if (decoded != s.count()) {
        p.add(
            source
                + ": "
                + where
                + ": the raw histogram holds "
                + decoded
                + " values but count says "
                + s.count());
      }
    } catch (RuntimeException e) {
      p.add(source + ": " + where + ": histogram_us_base64 is not a compressed HdrHistogram");
    }
  }
}
