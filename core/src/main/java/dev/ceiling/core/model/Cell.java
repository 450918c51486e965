package dev.ceiling.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One measured cell: one arm, one offered rate, one repeat. Raw figures only; whether the cell
 * counts as evidence is the verdict's decision, made from these fields alone.
 *
 * <p>Nullable fields mean "not applicable" or "not measured" (for example {@code outstandingDelta}
 * for an arm with no queue), never zero.
 *
 * @param arm the arm's name as the profile gives it (e.g. "on", "off")
 * @param offeredPerS the aggregate offered rate, events/s, > 0
 * @param repeat 0-based repeat index at this rate
 * @param sequence 0-based position of this cell in its half-run's execution order
 * @param twoCommunity true when the rate was split across two communities (report-only)
 * @param startedAt when the generator's clock started
 * @param durationRequestedS the schedule's length in seconds, > 0
 * @param durationElapsedS wall time from clock start to the last send or deadline, seconds
 * @param attempted events the schedule sent (on the wire)
 * @param accepted events of the window's slots answered OK true by the end of the grace period
 * @param acceptedInWindow OK-true answers that arrived during the measurement window, whichever
 *     slot they answer: the window's throughput (under saturation the open-loop backlog grows
 *     without bound, so "slots answered by some deadline" depends on the deadline; answers per
 *     second while the load runs does not)
 * @param acceptedPerS acceptedInWindow / requested duration
 * @param acceptedOverOffered acceptedInWindow / (offered x requested duration): the requested
 *     duration is the denominator so a run that overran cannot flatter itself
 * @param rejected events answered OK false
 * @param rejectedByPrefix rejections counted by NIP-01 prefix ("rate-limited", "invalid", ...)
 * @param notices NOTICE frames received (cannot be matched to an event)
 * @param firstNotice the first NOTICE's text, or null when there was none: what the relay said, so
 *     an exclusion can name it
 * @param unacknowledged events with no OK by the end of the grace period
 * @param unknownOkIds OKs naming an event id this cell never sent (a relay answering for someone
 *     else, or a broken instrument)
 * @param transportErrors transport errors by class ("connect", "write", "close", ...)
 * @param acceptedByCommunity accepted events per target community
 * @param counterDeltas scraped counter deltas keyed by {@link MetricRole#key()} (or a profile's
 *     extra name); a null value means the series is not exposed
 * @param counterResets names of counters that went down during the cell (a reset, never a negative
 *     delta)
 * @param sendLag intended slot to on-the-wire
 * @param service on-the-wire to OK
 * @param scheduled intended slot to OK (the primary latency)
 * @param generatorBound true when the generator itself could not keep the schedule
 * @param generatorBoundReason why, or null when not bound
 * @param headroom the generator's measured capacity over the offered rate (>= 1.5 required for
 *     evidence), or null if unknown
 * @param auditCompleted audit entries completed during the cell, or null without an audit path
 * @param auditCompletedPerS auditCompleted / elapsed window, or null
 * @param auditServiceMeanMs mean audit write time in ms (sum delta / count delta), or null
 * @param auditBusyFraction audit seconds spent / wall seconds of the cell window, or null
 * @param outstandingDelta change in (accepted - audit completed) over the cell, i.e. backlog
 *     growth; null for an arm with no queue
 * @param queueDepthBefore audit queue depth scraped before the cell, or null
 * @param queueDepthAfter audit queue depth scraped after the cell, or null
 * @param drainWaitS seconds waited before the cell for the relay's backlog to drain
 * @param loadPerCpuBefore 1-minute load average / CPUs before the cell, or null if unreadable
 * @param loadPerCpuAfter the same after the cell
 */
public record Cell(
    String arm,
    double offeredPerS,
    int repeat,
    int sequence,
    boolean twoCommunity,
    Instant startedAt,
    double durationRequestedS,
    double durationElapsedS,
    long attempted,
    long accepted,
    long acceptedInWindow,
    double acceptedPerS,
    double acceptedOverOffered,
    long rejected,
    Map<String, Long> rejectedByPrefix,
    long notices,
    String firstNotice,
    long unacknowledged,
    long unknownOkIds,
    Map<String, Long> transportErrors,
    Map<String, Long> acceptedByCommunity,
    Map<String, Double> counterDeltas,
    List<String> counterResets,
    LatencySummary sendLag,
    LatencySummary service,
    LatencySummary scheduled,
    boolean generatorBound,
    String generatorBoundReason,
    Double headroom,
    Long auditCompleted,
    Double auditCompletedPerS,
    Double auditServiceMeanMs,
    Double auditBusyFraction,
    Long outstandingDelta,
    Double queueDepthBefore,
    Double queueDepthAfter,
    double drainWaitS,
    Double loadPerCpuBefore,
    Double loadPerCpuAfter) {

  /** Relative tolerance for the derived ratios, which are recomputed and compared. */
  private static final double RATIO_TOLERANCE = 1e-9;

  public Cell {
    Checks.notBlank("arm", arm);
    Checks.positiveFinite("offered_per_s", offeredPerS);
    if (repeat < 0) {
      throw new IllegalArgumentException("repeat must be >= 0, got " + repeat);
    }
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must be >= 0, got " + sequence);
    }
    Objects.requireNonNull(startedAt, "started_at must not be null");
    Checks.positiveFinite("duration_requested_s", durationRequestedS);
    Checks.nonNegativeFinite("duration_elapsed_s", durationElapsedS);
    Checks.nonNegative("attempted", attempted);
    Checks.nonNegative("accepted", accepted);
    Checks.nonNegative("accepted_in_window", acceptedInWindow);
    Checks.nonNegative("rejected", rejected);
    Checks.nonNegative("notices", notices);
    Checks.nonNegative("unacknowledged", unacknowledged);
    Checks.nonNegative("unknown_ok_ids", unknownOkIds);
    // An impossible measurement is an error, never a pass.
    if (accepted + rejected > attempted) {
      throw new IllegalArgumentException(
          "accepted + rejected must be <= attempted, got "
              + accepted
              + " + "
              + rejected
              + " > "
              + attempted);
    }
    checkRatio("accepted_per_s", acceptedPerS, acceptedInWindow / durationRequestedS);
    checkRatio(
        "accepted_over_offered",
        acceptedOverOffered,
        acceptedInWindow / (offeredPerS * durationRequestedS));
    rejectedByPrefix = counts("rejected_by_prefix", rejectedByPrefix);
    transportErrors = counts("transport_errors", transportErrors);
    acceptedByCommunity = counts("accepted_by_community", acceptedByCommunity);
    Objects.requireNonNull(counterDeltas, "counter_deltas must not be null (use {})");
    TreeMap<String, Double> deltas = new TreeMap<>();
    counterDeltas.forEach((k, v) -> deltas.put(k, Checks.finiteOrNull("counter_deltas." + k, v)));
    counterDeltas = java.util.Collections.unmodifiableMap(deltas);
    counterResets = List.copyOf(Objects.requireNonNull(counterResets, "counter_resets"));
    Objects.requireNonNull(sendLag, "send_lag must not be null");
    Objects.requireNonNull(service, "service must not be null");
    Objects.requireNonNull(scheduled, "scheduled must not be null");
    if (generatorBound != (generatorBoundReason != null)) {
      throw new IllegalArgumentException(
          "generator_bound_reason must be set exactly when generator_bound is true, got bound="
              + generatorBound
              + " reason="
              + generatorBoundReason);
    }
    Checks.nonNegativeOrNull("headroom", headroom);
    if (auditCompleted != null) {
      Checks.nonNegative("audit_completed", auditCompleted);
    }
    Checks.nonNegativeOrNull("audit_completed_per_s", auditCompletedPerS);
    Checks.nonNegativeOrNull("audit_service_mean_ms", auditServiceMeanMs);
    Checks.nonNegativeOrNull("audit_busy_fraction", auditBusyFraction);
    Checks.nonNegativeOrNull("queue_depth_before", queueDepthBefore);
    Checks.nonNegativeOrNull("queue_depth_after", queueDepthAfter);
    Checks.nonNegativeFinite("drain_wait_s", drainWaitS);
    Checks.nonNegativeOrNull("load_per_cpu_before", loadPerCpuBefore);
    Checks.nonNegativeOrNull("load_per_cpu_after", loadPerCpuAfter);
  }

  /** Offered events in the requested window: the denominator of every ratio. */
  public double offeredEvents() {
    return offeredPerS * durationRequestedS;
  }

  /** A scraped counter delta by role, or null when not exposed or not scraped. */
  public Double delta(MetricRole role) {
    return counterDeltas.get(role.key());
  }

  private static void checkRatio(String field, double given, double expected) {
    if (Double.isNaN(given)
        || Math.abs(given - expected) > RATIO_TOLERANCE * Math.max(1.0, Math.abs(expected))) {
      throw new IllegalArgumentException(
          field + " must equal its definition (" + expected + "), got " + given);
    }
  }

  private static Map<String, Long> counts(String field, Map<String, Long> m) {
    Objects.requireNonNull(m, field + " must not be null (use {})");
    TreeMap<String, Long> copy = new TreeMap<>();
    m.forEach(
        (k, v) -> {
          if (v == null || v < 0) {
            throw new IllegalArgumentException(field + "." + k + " must be >= 0, got " + v);
          }
          copy.put(k, v);
        });
    return java.util.Collections.unmodifiableMap(copy);
  }

  /** A builder for tests and runners; {@link Builder#build()} derives the two ratios. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder primed with this cell's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.arm = arm;
    b.offeredPerS = offeredPerS;
    b.repeat = repeat;
    b.sequence = sequence;
    b.twoCommunity = twoCommunity;
    b.startedAt = startedAt;
    b.durationRequestedS = durationRequestedS;
    b.durationElapsedS = durationElapsedS;
    b.attempted = attempted;
    b.accepted = accepted;
    b.acceptedInWindow = acceptedInWindow;
    b.acceptedPerS = acceptedPerS;
    b.acceptedOverOffered = acceptedOverOffered;
    b.rejected = rejected;
    b.rejectedByPrefix = rejectedByPrefix;
    b.notices = notices;
    b.firstNotice = firstNotice;
    b.unacknowledged = unacknowledged;
    b.unknownOkIds = unknownOkIds;
    b.transportErrors = transportErrors;
    b.acceptedByCommunity = acceptedByCommunity;
    b.counterDeltas = counterDeltas;
    b.counterResets = counterResets;
    b.sendLag = sendLag;
    b.service = service;
    b.scheduled = scheduled;
    b.generatorBound = generatorBound;
    b.generatorBoundReason = generatorBoundReason;
    b.headroom = headroom;
    b.auditCompleted = auditCompleted;
    b.auditCompletedPerS = auditCompletedPerS;
    b.auditServiceMeanMs = auditServiceMeanMs;
    b.auditBusyFraction = auditBusyFraction;
    b.outstandingDelta = outstandingDelta;
    b.queueDepthBefore = queueDepthBefore;
    b.queueDepthAfter = queueDepthAfter;
    b.drainWaitS = drainWaitS;
    b.loadPerCpuBefore = loadPerCpuBefore;
    b.loadPerCpuAfter = loadPerCpuAfter;
    return b;
  }

  /**
   * Fluent builder. {@code acceptedPerS} and {@code acceptedOverOffered} are derived from accepted,
   * offered and the requested duration in {@link #build()}; latencies default to empty summaries.
   * Not thread-safe.
   */
  public static final class Builder {
    private String arm = "arm";
    private double offeredPerS = 1.0;
    private int repeat;
    private int sequence;
    private boolean twoCommunity;
    private Instant startedAt = Instant.EPOCH;
    private double durationRequestedS = 1.0;
    private double durationElapsedS;
    private long attempted;
    private long accepted;
    private Long acceptedInWindow;
    private double acceptedPerS;
    private double acceptedOverOffered;
    private long rejected;
    private Map<String, Long> rejectedByPrefix = Map.of();
    private long notices;
    private String firstNotice;
    private long unacknowledged;
    private long unknownOkIds;
    private Map<String, Long> transportErrors = Map.of();
    private Map<String, Long> acceptedByCommunity = Map.of();
    private Map<String, Double> counterDeltas = Map.of();
    private List<String> counterResets = List.of();
    private LatencySummary sendLag = EMPTY_LATENCY;
    private LatencySummary service = EMPTY_LATENCY;
    private LatencySummary scheduled = EMPTY_LATENCY;
    private boolean generatorBound;
    private String generatorBoundReason;
    private Double headroom;
    private Long auditCompleted;
    private Double auditCompletedPerS;
    private Double auditServiceMeanMs;
    private Double auditBusyFraction;
    private Long outstandingDelta;
    private Double queueDepthBefore;
    private Double queueDepthAfter;
    private double drainWaitS;
    private Double loadPerCpuBefore;
    private Double loadPerCpuAfter;

    private Builder() {}

    public Builder arm(String arm) {
      this.arm = arm;
      return this;
    }

    public Builder offeredPerS(double offeredPerS) {
      this.offeredPerS = offeredPerS;
      return this;
    }

    public Builder repeat(int repeat) {
      this.repeat = repeat;
      return this;
    }

    public Builder sequence(int sequence) {
      this.sequence = sequence;
      return this;
    }

    public Builder twoCommunity(boolean twoCommunity) {
      this.twoCommunity = twoCommunity;
      return this;
    }

    public Builder startedAt(Instant startedAt) {
      this.startedAt = startedAt;
      return this;
    }

    public Builder durationRequestedS(double durationRequestedS) {
      this.durationRequestedS = durationRequestedS;
      return this;
    }

    public Builder durationElapsedS(double durationElapsedS) {
      this.durationElapsedS = durationElapsedS;
      return this;
    }

    public Builder attempted(long attempted) {
      this.attempted = attempted;
      return this;
    }

    public Builder accepted(long accepted) {
      this.accepted = accepted;
      return this;
    }

    /** Defaults to {@code accepted} when not set (no warm-up, no backlog). */
    public Builder acceptedInWindow(long acceptedInWindow) {
      this.acceptedInWindow = acceptedInWindow;
      return this;
    }

    public Builder rejected(long rejected) {
      this.rejected = rejected;
      return this;
    }

    public Builder rejectedByPrefix(Map<String, Long> rejectedByPrefix) {
      this.rejectedByPrefix = rejectedByPrefix;
      return this;
    }

    public Builder notices(long notices) {
      this.notices = notices;
      return this;
    }

    public Builder firstNotice(String firstNotice) {
      this.firstNotice = firstNotice;
      return this;
    }

    public Builder unknownOkIds(long unknownOkIds) {
      this.unknownOkIds = unknownOkIds;
      return this;
    }

    public Builder unacknowledged(long unacknowledged) {
      this.unacknowledged = unacknowledged;
      return this;
    }

    public Builder transportErrors(Map<String, Long> transportErrors) {
      this.transportErrors = transportErrors;
      return this;
    }

    public Builder acceptedByCommunity(Map<String, Long> acceptedByCommunity) {
      this.acceptedByCommunity = acceptedByCommunity;
      return this;
    }

    public Builder counterDeltas(Map<String, Double> counterDeltas) {
      this.counterDeltas = counterDeltas;
      return this;
    }

    public Builder counterResets(List<String> counterResets) {
      this.counterResets = counterResets;
      return this;
    }

    public Builder sendLag(LatencySummary sendLag) {
      this.sendLag = sendLag;
      return this;
    }

    public Builder service(LatencySummary service) {
      this.service = service;
      return this;
    }

    public Builder scheduled(LatencySummary scheduled) {
      this.scheduled = scheduled;
      return this;
    }

    public Builder generatorBound(boolean generatorBound) {
      this.generatorBound = generatorBound;
      return this;
    }

    public Builder generatorBoundReason(String generatorBoundReason) {
      this.generatorBoundReason = generatorBoundReason;
      return this;
    }

    public Builder headroom(Double headroom) {
      this.headroom = headroom;
      return this;
    }

    public Builder auditCompleted(Long auditCompleted) {
      this.auditCompleted = auditCompleted;
      return this;
    }

    public Builder auditCompletedPerS(Double auditCompletedPerS) {
      this.auditCompletedPerS = auditCompletedPerS;
      return this;
    }

    public Builder auditServiceMeanMs(Double auditServiceMeanMs) {
      this.auditServiceMeanMs = auditServiceMeanMs;
      return this;
    }

    public Builder auditBusyFraction(Double auditBusyFraction) {
      this.auditBusyFraction = auditBusyFraction;
      return this;
    }

    public Builder outstandingDelta(Long outstandingDelta) {
      this.outstandingDelta = outstandingDelta;
      return this;
    }

    public Builder queueDepthBefore(Double queueDepthBefore) {
      this.queueDepthBefore = queueDepthBefore;
      return this;
    }

    public Builder queueDepthAfter(Double queueDepthAfter) {
      this.queueDepthAfter = queueDepthAfter;
      return this;
    }

    public Builder drainWaitS(double drainWaitS) {
      this.drainWaitS = drainWaitS;
      return this;
    }

    public Builder loadPerCpuBefore(Double loadPerCpuBefore) {
      this.loadPerCpuBefore = loadPerCpuBefore;
      return this;
    }

    public Builder loadPerCpuAfter(Double loadPerCpuAfter) {
      this.loadPerCpuAfter = loadPerCpuAfter;
      return this;
    }

    public Cell build() {
      long inWindow = acceptedInWindow == null ? accepted : acceptedInWindow;
      acceptedPerS = inWindow / durationRequestedS;
      acceptedOverOffered = inWindow / (offeredPerS * durationRequestedS);
      return new Cell(
          arm,
          offeredPerS,
          repeat,
          sequence,
          twoCommunity,
          startedAt,
          durationRequestedS,
          durationElapsedS,
          attempted,
          accepted,
          inWindow,
          acceptedPerS,
          acceptedOverOffered,
          rejected,
          rejectedByPrefix,
          notices,
          firstNotice,
          unacknowledged,
          unknownOkIds,
          transportErrors,
          acceptedByCommunity,
          counterDeltas,
          counterResets,
          sendLag,
          service,
          scheduled,
          generatorBound,
          generatorBoundReason,
          headroom,
          auditCompleted,
          auditCompletedPerS,
          auditServiceMeanMs,
          auditBusyFraction,
          outstandingDelta,
          queueDepthBefore,
          queueDepthAfter,
          drainWaitS,
          loadPerCpuBefore,
          loadPerCpuAfter);
    }
  }

  private static final LatencySummary EMPTY_LATENCY =
      LatencySummary.of(LatencySummary.newHistogram());
}
