package dev.ceiling.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One measured cell: one arm, one offered rate, one repeat. Raw figures only; whether the cell
 * counts as evidence is the verdict's decision, made from these fields alone.
 *
 * <p>The figures are grouped by where they come from: {@link CellKey which cell of the plan},
 * {@link CellCounts what the generator counted}, {@link CellLatencies its latencies}, {@link
 * RelayFigures what the relay's metrics said} and {@link CellEnvironment the conditions it ran in}.
 * The flat accessors below are shortcuts into those groups for the readers that take a cell figure
 * by figure (the verdict's rules, the report); they are not JSON properties (Jackson writes a
 * record's components only). Code that fills a cell works with the groups.
 *
 * <p>Nullable fields mean "not applicable" or "not measured" (for example {@code outstandingDelta}
 * for an arm with no queue), never zero.
 *
 * @param key which cell of the plan
 * @param counts what the generator counted
 * @param latencies the three latency distributions
 * @param relay the relay's scraped figures
 * @param environment timing, generator state and machine load
 */
public record Cell(
    CellKey key,
    CellCounts counts,
    CellLatencies latencies,
    RelayFigures relay,
    CellEnvironment environment) {

  /** Relative tolerance for the derived ratios, which are recomputed and compared. */
  private static final double RATIO_TOLERANCE = 1e-9;

  public Cell {
    Objects.requireNonNull(key, "key must not be null");
    Objects.requireNonNull(counts, "counts must not be null");
    Objects.requireNonNull(latencies, "latencies must not be null");
    Objects.requireNonNull(relay, "relay must not be null");
    Objects.requireNonNull(environment, "environment must not be null");
    checkRatio(
        "accepted_per_s",
        counts.acceptedPerS(),
        counts.creditedInWindow() / environment.durationRequestedS());
    checkRatio(
        "accepted_over_offered",
        counts.acceptedOverOffered(),
        counts.creditedInWindow() / (key.offeredPerS() * environment.durationRequestedS()));
  }

  /** Offered events in the requested window: the denominator of every ratio. */
  public double offeredEvents() {
    return key.offeredPerS() * environment.durationRequestedS();
  }

  /** A scraped counter delta by role, or null when not exposed or not scraped. */
  public Double delta(MetricRole role) {
    return relay.counterDeltas().get(role.key());
  }

  private static void checkRatio(String field, double given, double expected) {
    if (Double.isNaN(given)
        || Math.abs(given - expected) > RATIO_TOLERANCE * Math.max(1.0, Math.abs(expected))) {
      throw new IllegalArgumentException(
          field + " must equal its definition (" + expected + "), got " + given);
    }
  }

  /** A builder for tests and runners; {@link CellBuilder#build()} derives the two ratios. */
  public static CellBuilder builder() {
    return new CellBuilder();
  }

  /** A builder primed with this cell's values. */
  public CellBuilder toBuilder() {
    return new CellBuilder(this);
  }

  // --- shortcuts into the groups --------------------------------------------------------------

  public String arm() {
    return key.arm();
  }

  public double offeredPerS() {
    return key.offeredPerS();
  }

  public int repeat() {
    return key.repeat();
  }

  public int sequence() {
    return key.sequence();
  }

  public boolean twoCommunity() {
    return key.twoCommunity();
  }

  public Instant startedAt() {
    return environment.startedAt();
  }

  public double durationRequestedS() {
    return environment.durationRequestedS();
  }

  public long attempted() {
    return counts.attempted();
  }

  public Long warmupSlotsSent() {
    return counts.warmupSlotsSent();
  }

  public long accepted() {
    return counts.accepted();
  }

  public long acceptedInWindow() {
    return counts.acceptedInWindow();
  }

  /** The numerator of the two ratios; see {@link CellCounts#creditedInWindow()}. */
  public long creditedInWindow() {
    return counts.creditedInWindow();
  }

  public double acceptedPerS() {
    return counts.acceptedPerS();
  }

  public double acceptedOverOffered() {
    return counts.acceptedOverOffered();
  }

  public long rejected() {
    return counts.rejected();
  }

  public Map<String, Long> rejectedByPrefix() {
    return counts.rejectedByPrefix();
  }

  public long notices() {
    return counts.notices();
  }

  public long unacknowledged() {
    return counts.unacknowledged();
  }

  /** The first NOTICE's text, or null. */
  public String firstNotice() {
    return counts.firstNotice();
  }

  /** OKs naming ids the cell never sent, or null when not recorded. */
  public Long unknownOkIds() {
    return counts.unknownOkIds();
  }

  public Map<String, Long> transportErrors() {
    return counts.transportErrors();
  }

  public Map<String, Double> counterDeltas() {
    return relay.counterDeltas();
  }

  public List<String> counterResets() {
    return relay.counterResets();
  }

  public LatencySummary sendLag() {
    return latencies.sendLag();
  }

  public LatencySummary service() {
    return latencies.service();
  }

  public LatencySummary scheduled() {
    return latencies.scheduled();
  }

  public boolean generatorBound() {
    return environment.generatorBound();
  }

  public String generatorBoundReason() {
    return environment.generatorBoundReason();
  }

  public Double headroom() {
    return environment.headroom();
  }

  public Double auditCompletedPerS() {
    return relay.auditCompletedPerS();
  }

  public Double auditBusyFraction() {
    return relay.auditBusyFraction();
  }

  public Double poolBusyFraction() {
    return relay.poolBusyFraction();
  }

  public Long outstandingDelta() {
    return relay.outstandingDelta();
  }

  public double drainWaitS() {
    return environment.drainWaitS();
  }

  public Double loadPerCpuBefore() {
    return environment.loadPerCpuBefore();
  }

  public Double loadPerCpuAfter() {
    return environment.loadPerCpuAfter();
  }

  public Double scrapeStartS() {
    return environment.scrapeStartS();
  }

  public Double scrapeEndS() {
    return environment.scrapeEndS();
  }

  public Double scrapeWindowS() {
    return environment.scrapeWindowS();
  }

  public Double wakeFloorP99Ms() {
    return environment.wakeFloorP99Ms();
  }

  /** The drain before this cell that timed out, or null. */
  public DrainTimeout drainTimeout() {
    return environment.drainTimeout();
  }

  /** The control check's readings around this cell, or null. */
  public ControlCheckReading controlCheck() {
    return relay.controlCheck();
  }
}
