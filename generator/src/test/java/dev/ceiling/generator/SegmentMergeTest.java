package dev.ceiling.generator;

import static dev.ceiling.generator.SegmentReports.input;
import static dev.ceiling.generator.SegmentReports.report;
import static dev.ceiling.generator.SegmentReports.result;
import static dev.ceiling.generator.SegmentReports.us;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.LatencySummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SegmentMergeTest {

  /** 50 slots at 1 ms each. */
  static final long[] FAST = filled(50, 1_000);

  /** 45 slots at 1 ms and 5 at 100 ms: the union's p99 is 100 ms, the mean of p99s 50.5 ms. */
  static final long[] SLOW_TAIL = concat(filled(45, 1_000), filled(5, 100_000));

  static long[] filled(int n, long v) {
    long[] a = new long[n];
    Arrays.fill(a, v);
    return a;
  }

  static long[] concat(long[] a, long[] b) {
    long[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  static List<SegmentMerge.Input> twoSegments() {
    return List.of(
        // Given out of order on purpose: the merge orders by segment.
        input(
            "seg1.json",
            report(
                1,
                2,
                100,
                result(
                    50,
                    50,
                    50,
                    40,
                    10,
                    us(SLOW_TAIL),
                    us(SLOW_TAIL),
                    "send lag p99 100.0 ms > bound 1.0 ms"))),
        input("seg0.json", report(0, 2, 100, result(50, 50, 48, 45, 0, us(FAST), us(FAST), null))));
  }

  /** The merged report against the union of the raw latencies, the known answer. */
  static void assertExact(GeneratorReport m) {
    Histogram union = us(concat(FAST, SLOW_TAIL));
    GeneratorReport.Result a = m.aggregate();
    // 100 ms within HdrHistogram's 3 significant digits.
    assertThat(a.scheduled().p99Ms()).isCloseTo(100.0, within(0.1));
    assertThat(a.scheduled()).isEqualTo(LatencySummary.of(union));
    assertThat(a.sendLag()).isEqualTo(LatencySummary.of(union));
    assertThat(a.service().count()).isEqualTo(union.getTotalCount());
    assertThat(m.targets().get(0).result().scheduled()).isEqualTo(LatencySummary.of(union));
  }

  @Test
  void sumsCountsMergesRawHistogramsAndOrsTheSelfCheck() throws Exception {
    GeneratorReport m = SegmentMerge.merge(twoSegments());
    assertExact(m);
    GeneratorReport.Result a = m.aggregate();
    assertThat(a.offeredPerS()).isEqualTo(100.0);
    assertThat(a.slotsPlanned()).isEqualTo(100);
    assertThat(a.slotsSent()).isEqualTo(98);
    assertThat(a.slotsUnsentLate()).isEqualTo(2);
    assertThat(a.accepted()).isEqualTo(85);
    assertThat(a.rejected()).isEqualTo(10);
    assertThat(a.unacknowledged()).isEqualTo(3);
    assertThat(a.rejectedByPrefix()).isEqualTo(Map.of("rate-limited", 10L));
    assertThat(a.acceptedInWindowOverOffered()).isEqualTo(0.85);
    assertThat(m.generatorBound()).isTrue();
    assertThat(m.generatorBoundReason())
        .isEqualTo("segment 1/2: send lag p99 100.0 ms > bound 1.0 ms");
    assertThat(a.generatorBoundReason()).isEqualTo(m.generatorBoundReason());
    assertThat(m.segment()).isEqualTo("0/1");
    assertThat(m.startAt()).isEqualTo(SegmentReports.START);
    assertThat(m.config()).startsWith("merged from 2 segments: ").doesNotContain("segment 0/2");
    assertThat(m.senderThreads()).isEqualTo(4);
    assertThat(m.senderBusyFraction()).isEqualTo(0.2);
    assertThat(m.headroom()).isEqualTo(5.0);
    assertThat(m.firstSlotLateMs()).isEqualTo(0.1);
    assertThat(m.targets()).hasSize(1);
    assertThat(m.targets().get(0).ratePerS()).isEqualTo(100.0);
    // A normal generator report: it round-trips through the strict reader.
    assertThat(Json.read(Json.write(m), "merged", GeneratorReport.class)).isEqualTo(m);
  }

  /** Averages each percentile over the segments: plausible-looking and wrong. */
  static final Function<List<LatencySummary>, LatencySummary> AVERAGING =
      parts ->
          new LatencySummary(
              parts.stream().mapToLong(LatencySummary::count).sum(),
              parts.stream().mapToDouble(LatencySummary::p50Ms).average().orElseThrow(),
              parts.stream().mapToDouble(LatencySummary::p90Ms).average().orElseThrow(),
              parts.stream().mapToDouble(LatencySummary::p99Ms).average().orElseThrow(),
              parts.stream().mapToDouble(LatencySummary::p999Ms).average().orElseThrow(),
              parts.stream().mapToDouble(LatencySummary::maxMs).max().orElseThrow(),
              LatencySummary.merge(parts).histogramUsBase64());

  @Test
  void aMergeThatAveragesPercentilesIsCaught() throws Exception {
    GeneratorReport wrong = SegmentMerge.merge(twoSegments(), AVERAGING);
    assertThat(wrong.aggregate().scheduled().p99Ms()).isCloseTo(50.5, within(0.1));
    assertThatThrownBy(() -> assertExact(wrong)).isInstanceOf(AssertionError.class);
  }

  static List<String> problems(List<SegmentMerge.Input> inputs) {
    try {
      SegmentMerge.merge(inputs);
    } catch (SegmentMergeException e) {
      assertThat(e.getMessage()).isEqualTo("cannot merge: " + String.join("; ", e.problems()));
      return e.problems();
    }
    throw new AssertionError("merge accepted " + inputs);
  }

  static GeneratorReport plain(int i, int n, double rate) {
    return report(i, n, rate, result(rate / n, 10, 10, 10, 0, us(FAST), us(FAST), null));
  }

  @Test
  void missingDuplicatedAndForeignSegmentsAreAllListed() {
    List<String> p =
        problems(
            List.of(
                input("a.json", plain(0, 3, 90)),
                input("b.json", plain(0, 3, 90)),
                input("c.json", plain(2, 3, 120))));
    assertThat(p)
        .contains("segment 0/3 is given 2 times: a.json, b.json", "segment 1/3 is missing")
        .anyMatch(s -> s.startsWith("c.json (segment 2/3): configuration ") && s.contains("a.json"))
        .anyMatch(s -> s.startsWith("c.json (segment 2/3): targets "));
  }

  @Test
  void segmentsOfDifferentSplitsAreRefused() {
    assertThat(
            problems(List.of(input("a.json", plain(0, 2, 90)), input("b.json", plain(1, 3, 90)))))
        .contains(
            "the inputs split the schedule differently: N=2: a.json (0/2); N=3: b.json (1/3)");
  }

  @Test
  void segmentsWithoutOrWithDifferentStartInstantsAreRefused() {
    GeneratorReport a = plain(0, 3, 90);
    GeneratorReport b = withStart(plain(1, 3, 90), null);
    GeneratorReport c = withStart(plain(2, 3, 90), SegmentReports.START.plusSeconds(1));
    List<String> p = problems(List.of(input("a.json", a), input("b.json", b), input("c.json", c)));
    assertThat(p)
        .containsExactly(
            "b.json (segment 1/3) was not started with --start-at: its clock started on its own,"
                + " so its slots do not interleave with the others'",
            "c.json (segment 2/3): start instant 2026-12-01T06:30:01Z differs from a.json's"
                + " 2026-12-01T06:30:00Z");
  }

  @Test
  void aHistogramThatDisagreesWithItsCountIsRefused() {
    LatencySummary liar =
        new LatencySummary(
            3, 1.0, 1.0, 1.0, 1.0, 1.0, LatencySummary.of(us(1000, 1000)).histogramUsBase64());
    GeneratorReport.Result r = result(45, 10, 10, 10, 0, us(FAST), us(FAST), null);
    GeneratorReport.Result bad = Results.with(r, Map.of("send_lag", liar));
    assertThat(
            problems(
                List.of(input("a.json", plain(0, 2, 90)), input("b.json", report(1, 2, 90, bad)))))
        .contains(
            "b.json: aggregate.send_lag: the raw histogram holds 2 values but count says 3",
            "b.json: targets[0].send_lag: the raw histogram holds 2 values but count says 3");
  }

  @Test
  void nothingToMergeIsRefused() {
    assertThat(problems(new ArrayList<>())).containsExactly("no segment reports given");
  }

  static GeneratorReport withStart(GeneratorReport r, Instant startAt) {
    return new GeneratorReport(
        r.schemaVersion(),
        r.config(),
        r.segment(),
        startAt,
        r.clockSource(),
        r.firstSlotLateMs(),
        r.clockStart(),
        r.durationRequestedS(),
        r.durationElapsedS(),
        r.graceWaitedS(),
        r.senderThreads(),
        r.sourceAddresses(),
        r.senderBusyFraction(),
        r.senderCpuS(),
        r.senderRunQueueWaitS(),
        r.wakeFloorP99Ms(),
        r.headroom(),
        r.generatorBound(),
        r.generatorBoundReason(),
        r.incomplete(),
        r.aggregate(),
        r.targets());
  }
}
