package dev.ceiling.core.model;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Representative values of every shared model type, fixed so their JSON can be sealed in golden
 * files. Every field is set, and every nullable field appears both set and null somewhere.
 */
final class GoldenFixtures {
  private GoldenFixtures() {}

  /**
   * The compressed histogram (of {@link #histogram()}) is pinned as text rather than re-encoded on
   * each run: its bytes come from the platform's zlib, which may differ between machines (zlib vs
   * zlib-ng) although the decoded histogram is the same. {@code GoldenFilesTest} checks that it
   * decodes to {@link #histogram()}.
   */
  static final String HISTOGRAM_BASE64 =
      "HISTFAAAAIl4nJNpmSzMwMB+mgECmKE0I4i4NnkJg/0HiMB5fqaz/ExTOZiesjMtZGH6yAxFy5mYvjNiQSsZmaqZKvHg"
          + "bCZrILQFk+TRukzSTLJAiCDpz+dn4mXiBmIIRLCwiw5XeXYmVjBkhtKokHjRUf1DXz8zEwMaxBDABYlWSAszRy0ftXxk"
          + "WA4Am609yg==";

  /** An empty histogram, pinned for the same reason. */
  static final String EMPTY_HISTOGRAM_BASE64 =
      "HISTFAAAAB94nJNpmSzMwMDAyAABzFAazL82eQmD/QeoCABVgwSI";

  /** 1,000 service times, 1 ms to 1 s in µs. */
  static Histogram histogram() {
    Histogram h = LatencySummary.newHistogram();
    for (int i = 1; i <= 1000; i++) {
      h.recordValue(i * 1000L);
    }
    return h;
  }

  static LatencySummary latency() {
    return new LatencySummary(1000, 500.223, 900.095, 990.207, 999.423, 1000.447, HISTOGRAM_BASE64);
  }

  static LatencySummary emptyLatency() {
    return new LatencySummary(0, null, null, null, null, null, EMPTY_HISTOGRAM_BASE64);
  }

  static Cell fullCell() {
    Map<String, Double> deltas = new LinkedHashMap<>();
    deltas.put(MetricRole.AUDIT_LOG_COUNT.key(), 57_000.0);
    deltas.put(MetricRole.AUDIT_LOG_SUM_SECONDS.key(), 23.94);
    deltas.put(MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 1_200.0);
    deltas.put(MetricRole.EVENTS_ACCEPTED.key(), null);
    return Cell.builder()
        .arm("on")
        .offeredPerS(2000.0)
        .repeat(1)
        .sequence(3)
        .twoCommunity(true)
        .startedAt(Instant.parse("2026-11-29T17:00:00.123456789Z"))
        .durationRequestedS(30.0)
        .durationElapsedS(30.012)
        .attempted(60_000)
        .warmupSlotsSent(4_000L)
        .accepted(58_000)
        .rejected(1_500)
        .rejectedByPrefix(Map.of("rate-limited", 1_200L, "invalid", 300L))
        .notices(2)
        .firstNotice("rate-limited: slow down")
        .unknownOkIds(1L)
        .unacknowledged(500)
        .transportErrors(Map.of("write", 3L))
        .acceptedByCommunity(Map.of("a.localhost:7777", 29_000L, "b.localhost:7777", 29_000L))
        .counterDeltas(deltas)
        .counterResets(List.of("audit_rows"))
        .sendLag(latency())
        .service(latency())
        .scheduled(latency())
        .generatorBound(true)
        .generatorBoundReason("send lag p99 12.5 ms > 10 ms")
        .headroom(1.8)
        .auditCompleted(57_000L)
        .auditCompletedPerS(1_899.3669)
        .auditServiceMeanMs(0.42)
        .auditBusyFraction(0.7977)
        .outstandingDelta(1_000L)
        .queueDepthBefore(0.0)
        .queueDepthAfter(1_000.0)
        .drainWaitS(2.5)
        .drainTimeout(new DrainTimeout(60.0, 812.0, 0.0, 900.0))
        .controlCheck(new ControlCheckReading("audit=0", 0, "audit=3", 0))
        .loadPerCpuBefore(0.25)
        .loadPerCpuAfter(0.905)
        .wakeFloorP99Ms(1.4)
        .build();
  }

  /** A cell of an arm with no audit path and no queue: every "not applicable" field null. */
  static Cell sparseCell() {
    return Cell.builder()
        .arm("on")
        .offeredPerS(500.0)
        .repeat(0)
        .sequence(0)
        .startedAt(Instant.parse("2026-11-29T16:59:00Z"))
        .durationRequestedS(30.0)
        .durationElapsedS(30.0)
        .attempted(15_000)
        .warmupSlotsSent(0L)
        .accepted(15_000)
        .sendLag(emptyLatency())
        .service(emptyLatency())
        .scheduled(emptyLatency())
        .build();
  }

  static Target target() {
    return new Target(
        "bench-a",
        "ws://127.0.0.1:7777",
        "a.localhost:7777",
        List.of(List.of("h", "bench"), List.of("t", "ceiling", "")),
        1,
        256);
  }

  static ExperimentIdentity identity() {
    return new ExperimentIdentity(
        "refrelay-audit",
        "on",
        "off",
        List.of(500.0, 1000.0, 2000.0),
        30.0,
        3,
        "shuffled",
        42L,
        List.of("a.localhost:7777", "b.localhost:7777"),
        Map.of("quota_per_s", "5000", "burst", "100"),
        10_000,
        "ceiling 0.1.0-SNAPSHOT sha256:0f1e",
        "4118da4",
        null,
        "sha256:abcdef",
        java.util.Map.of(),
        new MeasurementSettings(2.0, 2.0, 10.0, 8),
        0.05);
  }

  static RigDescriptor rig() {
    return new RigDescriptor(
        SchemaVersion.CURRENT,
        "rig-20261129-170000-7f3a",
        "refrelay-audit",
        "on",
        4242L,
        Instant.parse("2026-11-29T16:58:00.5Z"),
        List.of("java", "-jar", "refrelay.jar", "--audit=on", "--rig-id=rig-20261129-170000-7f3a"),
        "/tmp/ceiling/relay.log",
        "http://127.0.0.1:7777/health",
        "http://127.0.0.1:7777/metrics",
        RigDescriptor.EVIDENCE_METRICS,
        List.of(target()),
        Map.of("quota_per_s", "5000", "burst", "100"),
        10_000,
        true,
        Map.of(
            MetricRole.AUDIT_LOG_COUNT.key(), "refrelay_audit_log_seconds_count",
            MetricRole.ADMISSION_REJECTIONS_QUOTA.key(),
                "refrelay_admission_rejections_total{reason=\"quota\"}"),
        List.of(MetricRole.ADMISSION_REJECTIONS_QUOTA.key()),
        Map.of("calibration_events_per_s", "12000"),
        "4118da4",
        null,
        "sha256:abcdef",
        "0.1.0-SNAPSHOT",
        null,
        List.of("sqlite3", "/tmp/ceiling/data/audit.db", "SELECT count(*) FROM audit_log"));
  }

  /** An attached relay (not started by this rig): pid, start instant and command all null. */
  static RigDescriptor attachedRig() {
    RigDescriptor r = rig();
    return new RigDescriptor(
        r.schemaVersion(),
        r.rigId(),
        r.profile(),
        "off",
        null,
        null,
        null,
        null,
        r.healthUrl(),
        r.metricsUrl(),
        r.contaminationEvidence(),
        r.targets(),
        r.limiterSettings(),
        null,
        false,
        r.metricMapping(),
        r.positiveControlled(),
        Map.of(),
        null,
        null,
        null,
        r.generatorVersion(),
        "sha256:0f1e",
        null);
  }

  static HalfRun halfRun() {
    return new HalfRun(
        SchemaVersion.CURRENT,
        identity(),
        "on",
        rig(),
        Instant.parse("2026-11-29T16:58:30Z"),
        Instant.parse("2026-11-29T17:10:00Z"),
        true,
        null,
        List.of(sparseCell(), fullCell()));
  }
}
