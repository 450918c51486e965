package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellCounts;
import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.prom.Snapshot;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * CellAssembler field by field, without a relay: every count and time in the generator report and
 * every figure from the two scrapes has a value of its own, so a field copied into the wrong place,
 * or dropped, changes a named assertion. The partner tests show the same comparison going red.
 */
class CellAssemblerTest {
  static final Instant CLOCK_START = Instant.parse("2026-12-01T10:00:00Z");

  static LatencySummary latency(long... us) {
    Histogram h = LatencySummary.newHistogram();
    for (long v : us) {
      h.recordValue(v);
    }
    return LatencySummary.of(h);
  }

  static final LatencySummary SEND_LAG = latency(100);
  static final LatencySummary SERVICE = latency(2000, 3000);
  static final LatencySummary SCHEDULED = latency(2100, 3100, 9000);

  /** One result with a distinct value in every field (accepted + rejected + unack = attempted). */
  static String result(long accepted) {
    long rejected = 30;
    long unacknowledged = 400 - accepted - rejected;
    return """
        {"offered_per_s": 100.0, "slots_planned": 410, "slots_sent": 400, "slots_unsent_late": 7,
         "slots_unsent_dead_connection": 3, "slots_cap_delayed": 2, "attempted": 400,
         "accepted": %d, "rejected": %d, "rejected_by_prefix": {"rate-limited": 30},
         "first_rejection": "rate-limited: slow down", "notices": 4, "first_notice": "hello",
         "unacknowledged": %d, "unknown_ok_ids": 5, "duplicate_oks": 6, "auth_challenges": 0,
         "transport_errors": {"connect": 2}, "first_transport_error": "refused",
         "accepted_in_window": 345, "warmup_slots_sent": 40,
         "accepted_in_window_first_half": 180, "accepted_in_window_second_half": 165,
         "accepted_in_window_own_slots": 320, "window_slots_outstanding_at_end": 11,
         "outstanding_at_window_start": 33, "outstanding_at_window_mid": 36,
         "outstanding_at_window_end": 41, "silence_at_window_end_s": 0.75,
         "rejected_in_window_first_half": 13, "rejected_in_window_second_half": 17,
         "accepted_in_window_per_s": 86.25,
         "accepted_in_window_over_offered": 0.8625, "send_lag": %s, "service": %s,
         "scheduled": %s, "generator_bound": true, "generator_bound_reason": "send lag p99 12 ms"}
        """
        .formatted(
            accepted,
            rejected,
            unacknowledged,
            Json.write(SEND_LAG),
            Json.write(SERVICE),
            Json.write(SCHEDULED));
  }

  static String target(String community, long accepted) {
    return """
        {"community": "%s", "url": "ws://127.0.0.1:1/", "host_header": null, "rate_per_s": 50.0,
         "connections": 8, "identities": 8, "send_lag_bound_ms": 10.0, "result": %s}
        """
        .formatted(community, result(accepted));
  }

  /** Two targets of community a and one of b: accepted by community must sum a's. */
  static GeneratorReport report() throws Exception {
    String json =
        """
        {"schema_version": 2, "config": "test", "segment": "0/1", "start_at": null,
         "clock_source": "wall: test", "first_slot_late_ms": 0.5, "clock_start": "%s",
         "duration_requested_s": 4.0, "duration_elapsed_s": 4.25, "grace_waited_s": 1.5,
         "sender_threads": 2, "sender_busy_fraction": 0.25, "sender_cpu_s": 0.75,
         "sender_run_queue_wait_s": null, "wake_floor_p99_ms": 1.4, "headroom": 4.0, "generator_bound": true,
         "generator_bound_reason": "send lag p99 12 ms", "aggregate": %s,
         "targets": [%s, %s, %s]}
        """
            .formatted(
                CLOCK_START, result(350), target("a", 300), target("a", 11), target("b", 39));
    return Json.read(json, "test report", GeneratorReport.class);
  }

  static final PlannedCell PLANNED = new PlannedCell(7, 100.0, 2, true);

  static CellAssembler.Scraped scraped() {
    Map<String, Double> deltas = new LinkedHashMap<>();
    deltas.put(MetricRole.AUDIT_LOG_COUNT.key(), 200.0);
    deltas.put(MetricRole.AUDIT_LOG_SUM_SECONDS.key(), 3.0);
    deltas.put(MetricRole.AUDIT_POOL_BUSY_SECONDS.key(), 1.0);
    deltas.put(MetricRole.EVENTS_ACCEPTED.key(), 260.0);
    deltas.put(MetricRole.AUDIT_WRITE_ERRORS.key(), null);
    return new CellAssembler.Scraped(
        deltas, List.of(MetricRole.AUDIT_WRITE_ERRORS.key()), 12.0, 52.0, 4.0);
  }

  static Cell assemble(boolean hasQueue, CellAssembler.Scraped s) throws Exception {
    return CellAssembler.assemble(PLANNED, "on", hasQueue, report(), s, 1.25, 0.5, 0.75);
  }

  /**
   * Every field of the cell by name, group by group through the records' own component lists (so a
   * field added to a group is compared too): the one comparison the tests and their partners share.
   */
  static Map<String, Object> fields(Cell c) throws ReflectiveOperationException {
    Map<String, Object> f = new LinkedHashMap<>();
    for (RecordComponent group : Cell.class.getRecordComponents()) {
      Object g = group.getAccessor().invoke(c);
      for (RecordComponent field : group.getType().getRecordComponents()) {
        f.put(field.getName(), field.getAccessor().invoke(g));
      }
    }
    return f;
  }

  /** What {@link #assemble} must give with a queue, worked out by hand from the inputs above. */
  static Map<String, Object> expected() {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("arm", "on");
    f.put("offeredPerS", 100.0);
    f.put("repeat", 2);
    f.put("sequence", 7);
    f.put("twoCommunity", true);
    f.put("attempted", 400L);
    f.put("warmupSlotsSent", 40L);
    f.put("accepted", 350L);
    f.put("acceptedInWindow", 345L);
    // 345 in the window, 25 of them to warm-up slots, credited against the window's 11 slots
    // unanswered at its end: 320 + 11 = 331.
    f.put("acceptedPerS", 82.75); // 331 / 4 s requested
    f.put("acceptedOverOffered", 0.8275); // 331 / (100/s x 4 s)
    f.put("acceptedInWindowFirstHalf", 180L);
    f.put("acceptedInWindowSecondHalf", 165L);
    f.put("acceptedInWindowOwnSlots", 320L);
    f.put("windowSlotsOutstandingAtEnd", 11L);
    f.put("outstandingAtWindowStart", 33L);
    f.put("outstandingAtWindowMid", 36L);
    f.put("outstandingAtWindowEnd", 41L);
    f.put("silenceAtWindowEndS", 0.75);
    f.put("rejectedInWindowFirstHalf", 13L);
    f.put("rejectedInWindowSecondHalf", 17L);
    f.put("rejected", 30L);
    f.put("rejectedByPrefix", Map.of("rate-limited", 30L));
    f.put("notices", 4L);
    f.put("firstNotice", "hello");
    f.put("unacknowledged", 20L);
    f.put("unknownOkIds", 5L);
    f.put("transportErrors", Map.of("connect", 2L));
    f.put("acceptedByCommunity", Map.of("a", 311L, "b", 39L));
    f.put("sendLag", SEND_LAG);
    f.put("service", SERVICE);
    f.put("scheduled", SCHEDULED);
    f.put("counterDeltas", scraped().deltas());
    f.put("counterResets", List.of(MetricRole.AUDIT_WRITE_ERRORS.key()));
    f.put("auditCompleted", 200L);
    f.put("auditCompletedPerS", 50.0); // 200 completions / 4 s window
    f.put("auditServiceMeanMs", 15.0); // 3 s / 200 completions
    f.put("auditBusyFraction", 0.75); // 3 s busy / 4 s window
    f.put("poolBusyFraction", 0.25); // 1 s of the pool's busy time / 4 s window
    f.put("outstandingDelta", 40L); // queue depth 12 -> 52
    f.put("queueDepthBefore", 12.0);
    f.put("queueDepthAfter", 52.0);
    // The runner adds the control check around the cell.
    f.put("controlCheck", null);
    f.put("startedAt", CLOCK_START);
    f.put("durationRequestedS", 4.0);
    f.put("durationElapsedS", 4.25);
    f.put("generatorBound", true);
    f.put("generatorBoundReason", "send lag p99 12 ms");
    f.put("headroom", 4.0);
    f.put("drainWaitS", 1.25);
    f.put("loadPerCpuBefore", 0.5);
    f.put("loadPerCpuAfter", 0.75);
    // The runner adds the scrape times; the assembler does not know them.
    f.put("scrapeStartS", null);
    f.put("scrapeEndS", null);
    f.put("scrapeWindowS", null);
    f.put("wakeFloorP99Ms", 1.4);
    // The runner adds the drain before the cell too, and each link's health around its load.
    f.put("drainTimeout", null);
    f.put("links", null);
    return f;
  }

  @Test
  void everyFieldComesFromItsOwnSource() throws Exception {
    assertThat(fields(assemble(true, scraped()))).containsExactlyEntriesOf(expected());
  }

  @Test
  void aCellWithOneFieldSwappedIsCaughtByTheSameComparison() throws Exception {
    Cell c = assemble(true, scraped());
    Cell swapped = c.toBuilder().accepted(c.acceptedInWindow()).build();

    assertThat(fields(swapped)).isNotEqualTo(expected()).containsEntry("accepted", 345L);
  }

  /**
   * Asserts that {@code mapping} carries every count of {@link #report()} into the cell's counts,
   * component by component through {@link CellCounts}'s own component list: a component named as
   * one of the generator's result is that one's value, the others have a rule here, and a component
   * with neither fails, so a count added to the cell cannot go unchecked.
   */
  static void assertCarriesEveryCount(BiFunction<GeneratorReport, Double, CellCounts> mapping)
      throws Exception {
    GeneratorReport report = report();
    CellCounts counts = mapping.apply(report, 100.0);
    for (RecordComponent c : CellCounts.class.getRecordComponents()) {
      Object want =
          switch (c.getName()) {
            // credited in-window answers (320 own + min(25 earlier, 11 handed on)) / duration
            case "acceptedPerS" -> 331 / 4.0;
            case "acceptedOverOffered" -> 331 / (100.0 * 4.0);
            case "acceptedByCommunity" -> Map.of("a", 311L, "b", 39L);
            default -> sameNamed(report.aggregate(), c.getName());
          };
      assertThat(want).as("the fixture's %s", c.getName()).isNotIn(null, 0L, 0.0, Map.of());
      assertThat(c.getAccessor().invoke(counts)).as(c.getName()).isEqualTo(want);
    }
  }

  private static Object sameNamed(GeneratorReport.Result r, String name) throws Exception {
    try {
      return GeneratorReport.Result.class.getMethod(name).invoke(r);
    } catch (NoSuchMethodException e) {
      throw new AssertionError("no rule for the cell's " + name + ": write one here", e);
    }
  }

  /** {@code c} with one field, by its JSON name, replaced. */
  static CellCounts with(CellCounts c, String field, Object value) {
    ObjectNode tree = Json.mapper().valueToTree(c);
    tree.set(field, Json.mapper().valueToTree(value));
    try {
      return Json.mapper().treeToValue(tree, CellCounts.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void theCountsMappingCarriesEveryCount() throws Exception {
    assertCarriesEveryCount(CellAssembler::counts);
  }

  @Test
  void aCountsMappingThatDropsACountFails() {
    BiFunction<GeneratorReport, Double, CellCounts> dropsUnknownOkIds =
        (report, offered) -> with(CellAssembler.counts(report, offered), "unknown_ok_ids", null);

    assertThatThrownBy(() -> assertCarriesEveryCount(dropsUnknownOkIds))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("unknownOkIds");
  }

  @Test
  void aCountsMappingThatSwapsTwoCountsFails() {
    BiFunction<GeneratorReport, Double, CellCounts> swaps =
        (report, offered) -> {
          CellCounts c = CellAssembler.counts(report, offered);
          return with(c, "accepted_in_window", c.accepted());
        };

    assertThatThrownBy(() -> assertCarriesEveryCount(swaps))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("acceptedInWindow");
  }

  @Test
  void aCountsMappingThatCreditsEveryWarmUpAnswerFails() {
    // The mutant builds the ratios from the plain arrivals, as before the window counts.
    BiFunction<GeneratorReport, Double, CellCounts> plain =
        (report, offered) -> {
          CellCounts c = CellAssembler.counts(report, offered);
          return with(
              with(c, "accepted_per_s", c.acceptedInWindow() / 4.0),
              "accepted_over_offered",
              c.acceptedInWindow() / 400.0);
        };

    assertThatThrownBy(() -> assertCarriesEveryCount(plain))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("acceptedPerS");
  }

  @Test
  void anArmWithoutAQueueHasNoBusyFractionAndNoOutstandingDeltaNeverZero() throws Exception {
    Map<String, Object> f = fields(assemble(false, scraped()));

    assertThat(f)
        .containsEntry("auditBusyFraction", null)
        .containsEntry("poolBusyFraction", null)
        .containsEntry("outstandingDelta", null);
    // The rest is what the arm with a queue gets.
    Map<String, Object> rest = expected();
    rest.put("auditBusyFraction", null);
    rest.put("poolBusyFraction", null);
    rest.put("outstandingDelta", null);
    assertThat(f).containsExactlyEntriesOf(rest);
  }

  @Test
  void withoutAQueueDepthTheOutstandingDeltaIsAcceptedMinusCompleted() throws Exception {
    CellAssembler.Scraped s = scraped();
    CellAssembler.Scraped noDepth =
        new CellAssembler.Scraped(s.deltas(), s.resets(), null, null, s.windowS());

    assertThat(assemble(true, noDepth).outstandingDelta()).isEqualTo(60L); // 260 - 200
    assertThat(assemble(true, CellAssembler.none(4.0)).outstandingDelta()).isNull();
  }

  @Test
  void noScrapesMeanNoRelayFiguresNeverZeros() throws Exception {
    Cell c = assemble(false, CellAssembler.none(4.0));

    assertThat(c.counterDeltas()).isEmpty();
    assertThat(c.relay().auditCompleted()).isNull();
    assertThat(c.auditCompletedPerS()).isNull();
    assertThat(c.relay().auditServiceMeanMs()).isNull();
    assertThat(c.relay().queueDepthBefore()).isNull();
    // The generator's side is all there.
    assertThat(c.accepted()).isEqualTo(350L);
  }

  @Test
  void zeroCompletionsHaveNoServiceMean() throws Exception {
    Map<String, Double> deltas = new LinkedHashMap<>(scraped().deltas());
    deltas.put(MetricRole.AUDIT_LOG_COUNT.key(), 0.0);
    Cell c = assemble(true, new CellAssembler.Scraped(deltas, List.of(), 12.0, 52.0, 4.0));

    assertThat(c.relay().auditCompleted()).isZero();
    assertThat(c.relay().auditServiceMeanMs()).isNull();
  }

  static RigDescriptor rig(Map<String, String> mapping) {
    return TestDescriptors.attached("on", mapping, Map.of());
  }

  static Snapshot snapshot(Instant at, String body) throws Exception {
    return Snapshot.parse(URI.create("http://127.0.0.1:1/metrics"), at, body);
  }

  @Test
  void scrapesBecomeDeltasResetsAndQueueLevels() throws Exception {
    RigDescriptor rig =
        rig(
            Map.of(
                MetricRole.AUDIT_LOG_COUNT.key(), "audit_count",
                MetricRole.AUDIT_WRITE_ERRORS.key(), "write_errors",
                MetricRole.AUDIT_QUEUE_DEPTH.key(), "queue_depth",
                MetricRole.EVENTS_ACCEPTED.key(), "not_exposed"));
    Snapshot before = snapshot(CLOCK_START, "audit_count 100\nwrite_errors 9\nqueue_depth 3\n");
    Snapshot after =
        snapshot(CLOCK_START.plusMillis(4500), "audit_count 350\nwrite_errors 2\nqueue_depth 8\n");

    CellAssembler.Scraped s = CellAssembler.scrape(rig, before, after);

    assertThat(s.deltas())
        .containsEntry(MetricRole.AUDIT_LOG_COUNT.key(), 250.0)
        // A counter that went down was reset: listed, and its delta is no reading, never negative.
        .containsEntry(MetricRole.AUDIT_WRITE_ERRORS.key(), null)
        .containsEntry(MetricRole.EVENTS_ACCEPTED.key(), null)
        .doesNotContainKey(MetricRole.AUDIT_QUEUE_DEPTH.key());
    assertThat(s.resets()).containsExactly(MetricRole.AUDIT_WRITE_ERRORS.key());
    assertThat(s.queueDepthBefore()).isEqualTo(3.0);
    assertThat(s.queueDepthAfter()).isEqualTo(8.0);
    assertThat(s.windowS()).isEqualTo(4.5);
  }
}
