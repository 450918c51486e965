package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.generator.GeneratorReport;
import java.util.Map;
import java.util.TreeMap;

/**
 * The additive part of a {@link GeneratorReport.Result}: every count, the per-class maps and the
 * first messages. Per-target tallies add up to the aggregate with {@link #plus}, so a new count is
 * one field here instead of another hand-written sum.
 */
public record Tally(
    long slotsPlanned,
    long slotsSent,
    long slotsUnsentLate,
    long slotsUnsentDeadConnection,
    long slotsCapDelayed,
    long accepted,
    long rejected,
    Map<String, Long> rejectedByPrefix,
    String firstRejection,
    long notices,
    String firstNotice,
    long unacknowledged,
    long unknownOkIds,
    long duplicateOks,
    long authChallenges,
    Map<String, Long> transportErrors,
    String firstTransportError,
    long acceptedInWindow,
    long warmupSlotsSent) {

  public static final Tally ZERO =
      new Tally(0, 0, 0, 0, 0, 0, 0, Map.of(), null, 0, null, 0, 0, 0, 0, Map.of(), null, 0, 0);

  /** The sum of two tallies; the first messages are this one's when it has them. */
  public Tally plus(Tally o) {
    return new Tally(
        slotsPlanned + o.slotsPlanned,
        slotsSent + o.slotsSent,
        slotsUnsentLate + o.slotsUnsentLate,
        slotsUnsentDeadConnection + o.slotsUnsentDeadConnection,
        slotsCapDelayed + o.slotsCapDelayed,
        accepted + o.accepted,
        rejected + o.rejected,
        merge(rejectedByPrefix, o.rejectedByPrefix),
        firstRejection != null ? firstRejection : o.firstRejection,
        notices + o.notices,
        firstNotice != null ? firstNotice : o.firstNotice,
        unacknowledged + o.unacknowledged,
        unknownOkIds + o.unknownOkIds,
        duplicateOks + o.duplicateOks,
        authChallenges + o.authChallenges,
        merge(transportErrors, o.transportErrors),
        firstTransportError != null ? firstTransportError : o.firstTransportError,
        acceptedInWindow + o.acceptedInWindow,
        warmupSlotsSent + o.warmupSlotsSent);
  }

  /** The counts of a finished result, to add to others (merging segment reports). */
  public static Tally of(GeneratorReport.Result r) {
    return new Tally(
        r.slotsPlanned(),
        r.slotsSent(),
        r.slotsUnsentLate(),
        r.slotsUnsentDeadConnection(),
        r.slotsCapDelayed(),
        r.accepted(),
        r.rejected(),
        r.rejectedByPrefix(),
        r.firstRejection(),
        r.notices(),
        r.firstNotice(),
        r.unacknowledged(),
        r.unknownOkIds(),
        r.duplicateOks(),
        r.authChallenges(),
        r.transportErrors(),
        r.firstTransportError(),
        r.acceptedInWindow(),
        r.warmupSlotsSent());
  }

  private static Map<String, Long> merge(Map<String, Long> a, Map<String, Long> b) {
    Map<String, Long> m = new TreeMap<>(a);
    b.forEach((k, v) -> m.merge(k, v, Long::sum));
    return m;
  }

  /** The report's result: these counts with the rates built from them and the latencies. */
  public GeneratorReport.Result toResult(
      double offeredPerS,
      double durationS,
      LatencySummary sendLag,
      LatencySummary service,
      LatencySummary scheduled,
      String generatorBoundReason) {
    return new GeneratorReport.Result(
        offeredPerS,
        slotsPlanned,
        slotsSent,
        slotsUnsentLate,
        slotsUnsentDeadConnection,
        slotsCapDelayed,
        slotsSent,
        accepted,
        rejected,
        rejectedByPrefix,
        firstRejection,
        notices,
        firstNotice,
        unacknowledged,
        unknownOkIds,
        duplicateOks,
        authChallenges,
        transportErrors,
        firstTransportError,
        acceptedInWindow,
        warmupSlotsSent,
        acceptedInWindow / durationS,
        acceptedInWindow / (offeredPerS * durationS),
        sendLag,
        service,
        scheduled,
        generatorBoundReason != null,
        generatorBoundReason);
  }
}
