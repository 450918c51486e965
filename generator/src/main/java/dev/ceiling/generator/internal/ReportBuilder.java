package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Builds the report from the targets' receive-side counts and the joined senders' tallies. */
final class ReportBuilder {
  private ReportBuilder() {}

  /** What the engine knows about the run's timing, for the report's top level. */
  record Timing(
      Instant windowStart,
      long startNanos,
      long windowStartNanos,
      long endOfSends,
      double graceWaitedS) {}

  static GeneratorReport build(
      GeneratorConfig cfg, List<TargetRun> targets, List<Sender> senders, Timing timing) {
    double durS = cfg.duration().toNanos() / 1e9;
    List<GeneratorReport.TargetReport> perTarget = new ArrayList<>();
    Tally total = Tally.ZERO;
    List<String> reasons = new ArrayList<>();
    Histogram aggLag = LatencySummary.newHistogram();
    Histogram aggService = LatencySummary.newHistogram();
    Histogram aggScheduled = LatencySummary.newHistogram();
    for (TargetRun t : targets) {
      SendTally sends = new SendTally();
      for (Sender s : senders) {
        s.tallies[t.index].addTo(sends);
      }
      Tally tally;
      Histogram service;
      Histogram scheduled;
      synchronized (t) {
        tally = t.tally(sends);
        service = t.serviceUs.copy();
        scheduled = t.scheduledUs.copy();
      }
      String reason =
          SelfCheck.reason(
              cfg.sendLagBound().toNanos() / 1000,
              t.schedule.segmentIntervalNanos(),
              tally.slotsPlanned(),
              tally.slotsUnsentLate(),
              tally.slotsCapDelayed(),
              sends.sendLagUs);
      GeneratorReport.Result r =
          tally.toResult(
              t.load.ratePerS() / cfg.segment().count(),
              durS,
              LatencySummary.of(sends.sendLagUs),
              LatencySummary.of(service),
              LatencySummary.of(scheduled),
              reason);
      total = total.plus(tally);
      if (reason != null) {
        reasons.add("target " + (t.index + 1) + ": " + reason);
      }
      aggLag.add(sends.sendLagUs);
      aggService.add(service);
      aggScheduled.add(scheduled);
      perTarget.add(
          new GeneratorReport.TargetReport(
              t.load.target().community(),
              t.load.target().url(),
              t.load.target().hostHeader(),
              t.load.ratePerS(),
              t.load.connections(),
              t.load.identities(),
              r));
    }
    GeneratorReport.Result agg =
        total.toResult(
            cfg.offeredPerS(),
            durS,
            LatencySummary.of(aggLag),
            LatencySummary.of(aggService),
            LatencySummary.of(aggScheduled),
            reasons.isEmpty() ? null : String.join("; ", reasons));
    Double busy = busiest(senders, timing.startNanos());
    Double headroom = busy == null || busy <= 0 ? null : 1.0 / busy;
    Double senderCpuS = 0.0;
    for (Sender s : senders) {
      senderCpuS = s.cpuNanos < 0 || senderCpuS == null ? null : senderCpuS + s.cpuNanos / 1e9;
    }
    return new GeneratorReport(
        cfg.describe(),
        cfg.segment().toString(),
        timing.windowStart(),
        durS,
        Math.max(0, timing.endOfSends() - timing.windowStartNanos()) / 1e9,
        timing.graceWaitedS(),
        senders.size(),
        busy,
        senderCpuS,
        headroom,
        agg.generatorBound(),
        agg.generatorBoundReason(),
        agg,
        perTarget);
  }

  /** The busiest sender's busy time over its send window, or null when nothing was sent. */
  private static Double busiest(List<Sender> senders, long startNanos) {
    Double busy = null;
    for (Sender s : senders) {
      long window = Math.max(s.lastDueNanos, s.lastSendNanos) - startNanos;
      if (s.lastSendNanos > 0 && window > 0) {
        double f = (double) s.busyNanos / window;
        busy = busy == null ? f : Math.max(busy, f);
      }
    }
    return busy;
  }
}
