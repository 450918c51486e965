package dev.ceiling.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Fluent, flat builder of a {@link Cell}: one setter per figure, whichever group it lives in, so a
 * runner or a test sets what it knows and leaves the rest at "nothing happened". {@code
 * acceptedPerS} and {@code acceptedOverOffered} are derived from the credited in-window count, the
 * offered rate and the requested duration in {@link #build()}; latencies default to empty
 * summaries. Not thread-safe.
 */
public final class CellBuilder {
  private static final LatencySummary EMPTY_LATENCY =
      LatencySummary.of(LatencySummary.newHistogram());

  private String arm = "arm";
  private double offeredPerS = 1.0;
  private int repeat;
  private int sequence;
  private boolean twoCommunity;
  private Instant startedAt = Instant.EPOCH;
  private double durationRequestedS = 1.0;
  private double durationElapsedS;
  private long attempted;
  private Long warmupSlotsSent;
  private long accepted;
  private Long acceptedInWindow;
  private Long acceptedInWindowFirstHalf;
  private Long acceptedInWindowSecondHalf;
  private Long acceptedInWindowOwnSlots;
  private Long windowSlotsOutstandingAtEnd;
  private Long outstandingAtWindowStart;
  private Long outstandingAtWindowMid;
  private Long outstandingAtWindowEnd;
  private Double silenceAtWindowEndS;
  private Long rejectedInWindowFirstHalf;
  private Long rejectedInWindowSecondHalf;
  private long rejected;
  private Map<String, Long> rejectedByPrefix = Map.of();
  private long notices;
  private String firstNotice;
  private long unacknowledged;
  private Long unknownOkIds = 0L;
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
  private Double poolBusyFraction;
  private Long outstandingDelta;
  private Double queueDepthBefore;
  private Double queueDepthAfter;
  private double drainWaitS;
  private Double loadPerCpuBefore;
  private Double loadPerCpuAfter;
  private Double scrapeStartS;
  private Double scrapeEndS;
  private Double scrapeWindowS;
  private Double wakeFloorP99Ms;
  private DrainTimeout drainTimeout;
  private java.util.List<LinkHealth> links;
  private ControlCheckReading controlCheck;

  CellBuilder() {}

  CellBuilder(Cell c) {
    CellKey key = c.key();
    this.arm = key.arm();
    this.offeredPerS = key.offeredPerS();
    this.repeat = key.repeat();
    this.sequence = key.sequence();
    this.twoCommunity = key.twoCommunity();
    CellCounts counts = c.counts();
    this.attempted = counts.attempted();
    this.warmupSlotsSent = counts.warmupSlotsSent();
    this.accepted = counts.accepted();
    this.acceptedInWindow = counts.acceptedInWindow();
    this.acceptedInWindowFirstHalf = counts.acceptedInWindowFirstHalf();
    this.acceptedInWindowSecondHalf = counts.acceptedInWindowSecondHalf();
    this.acceptedInWindowOwnSlots = counts.acceptedInWindowOwnSlots();
    this.windowSlotsOutstandingAtEnd = counts.windowSlotsOutstandingAtEnd();
    this.outstandingAtWindowStart = counts.outstandingAtWindowStart();
    this.outstandingAtWindowMid = counts.outstandingAtWindowMid();
    this.outstandingAtWindowEnd = counts.outstandingAtWindowEnd();
    this.silenceAtWindowEndS = counts.silenceAtWindowEndS();
    this.rejectedInWindowFirstHalf = counts.rejectedInWindowFirstHalf();
    this.rejectedInWindowSecondHalf = counts.rejectedInWindowSecondHalf();
    this.rejected = counts.rejected();
    this.rejectedByPrefix = counts.rejectedByPrefix();
    this.notices = counts.notices();
    this.firstNotice = counts.firstNotice();
    this.unacknowledged = counts.unacknowledged();
    this.unknownOkIds = counts.unknownOkIds();
    this.transportErrors = counts.transportErrors();
    this.acceptedByCommunity = counts.acceptedByCommunity();
    this.sendLag = c.latencies().sendLag();
    this.service = c.latencies().service();
    this.scheduled = c.latencies().scheduled();
    RelayFigures relay = c.relay();
    this.counterDeltas = relay.counterDeltas();
    this.counterResets = relay.counterResets();
    this.auditCompleted = relay.auditCompleted();
    this.auditCompletedPerS = relay.auditCompletedPerS();
    this.auditServiceMeanMs = relay.auditServiceMeanMs();
    this.auditBusyFraction = relay.auditBusyFraction();
    this.poolBusyFraction = relay.poolBusyFraction();
    this.outstandingDelta = relay.outstandingDelta();
    this.queueDepthBefore = relay.queueDepthBefore();
    this.queueDepthAfter = relay.queueDepthAfter();
    CellEnvironment env = c.environment();
    this.startedAt = env.startedAt();
    this.durationRequestedS = env.durationRequestedS();
    this.durationElapsedS = env.durationElapsedS();
    this.generatorBound = env.generatorBound();
    this.generatorBoundReason = env.generatorBoundReason();
    this.headroom = env.headroom();
    this.drainWaitS = env.drainWaitS();
    this.loadPerCpuBefore = env.loadPerCpuBefore();
    this.loadPerCpuAfter = env.loadPerCpuAfter();
    this.scrapeStartS = env.scrapeStartS();
    this.scrapeEndS = env.scrapeEndS();
    this.scrapeWindowS = env.scrapeWindowS();
    this.wakeFloorP99Ms = env.wakeFloorP99Ms();
    this.drainTimeout = env.drainTimeout();
    this.links = env.links();
    this.controlCheck = relay.controlCheck();
  }

  public CellBuilder arm(String arm) {
    this.arm = arm;
    return this;
  }

  public CellBuilder offeredPerS(double offeredPerS) {
    this.offeredPerS = offeredPerS;
    return this;
  }

  public CellBuilder repeat(int repeat) {
    this.repeat = repeat;
    return this;
  }

  public CellBuilder sequence(int sequence) {
    this.sequence = sequence;
    return this;
  }

  public CellBuilder twoCommunity(boolean twoCommunity) {
    this.twoCommunity = twoCommunity;
    return this;
  }

  public CellBuilder startedAt(Instant startedAt) {
    this.startedAt = startedAt;
    return this;
  }

  public CellBuilder durationRequestedS(double durationRequestedS) {
    this.durationRequestedS = durationRequestedS;
    return this;
  }

  public CellBuilder durationElapsedS(double durationElapsedS) {
    this.durationElapsedS = durationElapsedS;
    return this;
  }

  public CellBuilder attempted(long attempted) {
    this.attempted = attempted;
    return this;
  }

  /** Defaults to null: not recorded (the verdict then cannot bound the in-window count). */
  public CellBuilder warmupSlotsSent(Long warmupSlotsSent) {
    this.warmupSlotsSent = warmupSlotsSent;
    return this;
  }

  public CellBuilder accepted(long accepted) {
    this.accepted = accepted;
    return this;
  }

  /** Defaults to {@code accepted} when not set (no warm-up, no backlog). */
  public CellBuilder acceptedInWindow(long acceptedInWindow) {
    this.acceptedInWindow = acceptedInWindow;
    return this;
  }

  /**
   * The window's counts (defaults: not recorded): OK-true answers in each half, those answering the
   * window's own slots, its slots unanswered at its end, and the outstanding count at its start,
   * middle and end. See {@link CellCounts}.
   */
  public CellBuilder windowCounts(
      long firstHalf,
      long secondHalf,
      long ownSlots,
      long ownOutstandingAtEnd,
      long outstandingAtStart,
      long outstandingAtMid,
      long outstandingAtEnd) {
    this.acceptedInWindowFirstHalf = firstHalf;
    this.acceptedInWindowSecondHalf = secondHalf;
    this.acceptedInWindowOwnSlots = ownSlots;
    this.windowSlotsOutstandingAtEnd = ownOutstandingAtEnd;
    this.outstandingAtWindowStart = outstandingAtStart;
    this.outstandingAtWindowMid = outstandingAtMid;
    this.outstandingAtWindowEnd = outstandingAtEnd;
    return this;
  }

  /**
   * Seconds from the window's last answer (or its start) to its end (default: not recorded). See
   * {@link CellCounts#silenceAtWindowEndS()}.
   */
  public CellBuilder silenceAtWindowEndS(Double silenceAtWindowEndS) {
    this.silenceAtWindowEndS = silenceAtWindowEndS;
    return this;
  }

  /**
   * OK-false answers that arrived in each half of the window (default: not recorded). See {@link
   * CellCounts#rejectedInWindowFirstHalf()}.
   */
  public CellBuilder rejectedInWindowHalves(long firstHalf, long secondHalf) {
    this.rejectedInWindowFirstHalf = firstHalf;
    this.rejectedInWindowSecondHalf = secondHalf;
    return this;
  }

  /** Leaves the OK-false halves unrecorded, as in a cell written before them. */
  public CellBuilder noRejectedInWindowHalves() {
    this.rejectedInWindowFirstHalf = null;
    this.rejectedInWindowSecondHalf = null;
    return this;
  }

  /** Leaves the window's counts unrecorded, as in a cell written before them. */
  public CellBuilder noWindowCounts() {
    this.acceptedInWindowFirstHalf = null;
    this.acceptedInWindowSecondHalf = null;
    this.acceptedInWindowOwnSlots = null;
    this.windowSlotsOutstandingAtEnd = null;
    this.outstandingAtWindowStart = null;
    this.outstandingAtWindowMid = null;
    this.outstandingAtWindowEnd = null;
    return this;
  }

  public CellBuilder rejected(long rejected) {
    this.rejected = rejected;
    return this;
  }

  public CellBuilder rejectedByPrefix(Map<String, Long> rejectedByPrefix) {
    this.rejectedByPrefix = rejectedByPrefix;
    return this;
  }

  public CellBuilder notices(long notices) {
    this.notices = notices;
    return this;
  }

  public CellBuilder firstNotice(String firstNotice) {
    this.firstNotice = firstNotice;
    return this;
  }

  public CellBuilder unknownOkIds(Long unknownOkIds) {
    this.unknownOkIds = unknownOkIds;
    return this;
  }

  public CellBuilder unacknowledged(long unacknowledged) {
    this.unacknowledged = unacknowledged;
    return this;
  }

  public CellBuilder transportErrors(Map<String, Long> transportErrors) {
    this.transportErrors = transportErrors;
    return this;
  }

  public CellBuilder acceptedByCommunity(Map<String, Long> acceptedByCommunity) {
    this.acceptedByCommunity = acceptedByCommunity;
    return this;
  }

  public CellBuilder counterDeltas(Map<String, Double> counterDeltas) {
    this.counterDeltas = counterDeltas;
    return this;
  }

  public CellBuilder counterResets(List<String> counterResets) {
    this.counterResets = counterResets;
    return this;
  }

  public CellBuilder sendLag(LatencySummary sendLag) {
    this.sendLag = sendLag;
    return this;
  }

  public CellBuilder service(LatencySummary service) {
    this.service = service;
    return this;
  }

  public CellBuilder scheduled(LatencySummary scheduled) {
    this.scheduled = scheduled;
    return this;
  }

  public CellBuilder generatorBound(boolean generatorBound) {
    this.generatorBound = generatorBound;
    return this;
  }

  public CellBuilder generatorBoundReason(String generatorBoundReason) {
    this.generatorBoundReason = generatorBoundReason;
    return this;
  }

  public CellBuilder headroom(Double headroom) {
    this.headroom = headroom;
    return this;
  }

  public CellBuilder auditCompleted(Long auditCompleted) {
    this.auditCompleted = auditCompleted;
    return this;
  }

  public CellBuilder auditCompletedPerS(Double auditCompletedPerS) {
    this.auditCompletedPerS = auditCompletedPerS;
    return this;
  }

  public CellBuilder auditServiceMeanMs(Double auditServiceMeanMs) {
    this.auditServiceMeanMs = auditServiceMeanMs;
    return this;
  }

  public CellBuilder auditBusyFraction(Double auditBusyFraction) {
    this.auditBusyFraction = auditBusyFraction;
    return this;
  }

  public CellBuilder poolBusyFraction(Double poolBusyFraction) {
    this.poolBusyFraction = poolBusyFraction;
    return this;
  }

  public CellBuilder outstandingDelta(Long outstandingDelta) {
    this.outstandingDelta = outstandingDelta;
    return this;
  }

  public CellBuilder queueDepthBefore(Double queueDepthBefore) {
    this.queueDepthBefore = queueDepthBefore;
    return this;
  }

  public CellBuilder queueDepthAfter(Double queueDepthAfter) {
    this.queueDepthAfter = queueDepthAfter;
    return this;
  }

  public CellBuilder drainWaitS(double drainWaitS) {
    this.drainWaitS = drainWaitS;
    return this;
  }

  public CellBuilder loadPerCpuBefore(Double loadPerCpuBefore) {
    this.loadPerCpuBefore = loadPerCpuBefore;
    return this;
  }

  /**
   * Seconds the scrapes at the window's start and end took, and the seconds between their
   * completions; null when not scraped.
   */
  public CellBuilder scrapeS(Double startS, Double endS, Double windowS) {
    this.scrapeStartS = startS;
    this.scrapeEndS = endS;
    this.scrapeWindowS = windowS;
    return this;
  }

  /** The machine's wake floor p99 before the clock, ms; null when not measured. */
  public CellBuilder wakeFloorP99Ms(Double wakeFloorP99Ms) {
    this.wakeFloorP99Ms = wakeFloorP99Ms;
    return this;
  }

  /** The drain before the cell that timed out; defaults to null (it finished). */
  public CellBuilder drainTimeout(DrainTimeout drainTimeout) {
    this.drainTimeout = drainTimeout;
    return this;
  }

  /** Each link's health during the cell; defaults to null (not recorded). */
  public CellBuilder links(java.util.List<LinkHealth> links) {
    this.links = links;
    return this;
  }

  /** The control check's readings; defaults to null (none declared, or not the control arm). */
  public CellBuilder controlCheck(ControlCheckReading controlCheck) {
    this.controlCheck = controlCheck;
    return this;
  }

  public CellBuilder loadPerCpuAfter(Double loadPerCpuAfter) {
    this.loadPerCpuAfter = loadPerCpuAfter;
    return this;
  }

  /** Builds the cell; the constructors of the groups and of {@link Cell} check every value. */
  public Cell build() {
    long inWindow = acceptedInWindow == null ? accepted : acceptedInWindow;
    // The ratios' numerator is the credited count, which needs the window counts: a first pass
    // with the plain count only works it out, the cell's constructor checks the result.
    CellCounts plain =
        counts(
            inWindow, inWindow / durationRequestedS, inWindow / (offeredPerS * durationRequestedS));
    long credited = plain.creditedInWindow();
    return new Cell(
        new CellKey(arm, offeredPerS, repeat, sequence, twoCommunity),
        counts(
            inWindow, credited / durationRequestedS, credited / (offeredPerS * durationRequestedS)),
        new CellLatencies(sendLag, service, scheduled),
        new RelayFigures(
            counterDeltas,
            counterResets,
            auditCompleted,
            auditCompletedPerS,
            auditServiceMeanMs,
            auditBusyFraction,
            poolBusyFraction,
            outstandingDelta,
            queueDepthBefore,
            queueDepthAfter,
            controlCheck),
        new CellEnvironment(
            startedAt,
            durationRequestedS,
            durationElapsedS,
            generatorBound,
            generatorBoundReason,
            headroom,
            drainWaitS,
            loadPerCpuBefore,
            loadPerCpuAfter,
            scrapeStartS,
            scrapeEndS,
            scrapeWindowS,
            wakeFloorP99Ms,
            drainTimeout,
            links));
  }

  private CellCounts counts(long inWindow, double perS, double overOffered) {
    return new CellCounts(
        attempted,
        warmupSlotsSent,
        accepted,
        inWindow,
        perS,
        overOffered,
        acceptedInWindowFirstHalf,
        acceptedInWindowSecondHalf,
        acceptedInWindowOwnSlots,
        windowSlotsOutstandingAtEnd,
        outstandingAtWindowStart,
        outstandingAtWindowMid,
        outstandingAtWindowEnd,
        silenceAtWindowEndS,
        rejectedInWindowFirstHalf,
        rejectedInWindowSecondHalf,
        rejected,
        rejectedByPrefix,
        notices,
        firstNotice,
        unacknowledged,
        unknownOkIds,
        transportErrors,
        acceptedByCommunity);
  }
}
