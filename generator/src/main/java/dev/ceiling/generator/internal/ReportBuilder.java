package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.StartInstant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds the report from the targets' receive-side counts and the joined senders' tallies. */
final class ReportBuilder {
  private ReportBuilder() {}

  /** What the engine knows about the run's timing, for the report's top level. */
  record Timing(
      Instant windowStart,
      long startNanos,
      long windowStartNanos,
      long endOfSends,
      double graceWaitedS,
      Long wakeFloorP99Us) {}

  /**
   * The report; {@code incomplete} is why a stopped run covers less than its schedule, or null. A
   * stopped run's slots that never came due are not planned: planned = sent + unsent.
   */
  static GeneratorReport build(
      GeneratorConfig cfg,
      List<TargetRun> targets,
      List<Sender> senders,
      Timing timing,
      String incomplete) {
    double durS = cfg.duration().toNanos() / 1e9;
    List<GeneratorReport.TargetReport> perTarget = new ArrayList<>();
    List<GeneratorReport.Result> results = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    String cause = cause(senders, timing.wakeFloorP99Us());
    for (TargetRun t : targets) {
      SendTally sends = new SendTally();
      for (Sender s : senders) {
        s.tallies[t.index].addTo(sends);
      }
      String reason =
          SelfCheck.reason(
              cfg.sendLagBound().toNanos() / 1000,
              timing.wakeFloorP99Us(),
              t.schedule.segmentIntervalNanos(),
              t.slotsPlanned() - sends.notDue,
              sends.unsentLate,
              sends.capDelayed,
              sends.sendLagUs);
      if (reason != null && sends.capDelayed == 0) {
        reason = reason + "; " + cause;
      }
      GeneratorReport.Result r =
          t.result(sends, t.load.ratePerS() / cfg.segment().count(), durS, reason);
      results.add(r);
      labels.add("target " + (t.index + 1));
      perTarget.add(
          new GeneratorReport.TargetReport(
              t.load.target().community(),
              t.load.target().url(),
              t.load.target().hostHeader(),
              t.load.ratePerS(),
              t.load.connections(),
              t.load.identities(),
              SelfCheck.lagBoundUs(
                      cfg.sendLagBound().toNanos() / 1000,
                      timing.wakeFloorP99Us(),
                      t.schedule.segmentIntervalNanos())
                  / 1000.0,
              r));
    }
    GeneratorReport.Result agg =
        GeneratorReport.Result.sum(results, labels, cfg.offeredPerS(), durS, LatencySummary::merge);
    Double busy = busiest(senders, timing.startNanos());
    Double headroom = busy == null || busy <= 0 ? null : 1.0 / busy;
    Double senderCpuS = 0.0;
    for (Sender s : senders) {
      senderCpuS = s.cpuNanos < 0 || senderCpuS == null ? null : senderCpuS + s.cpuNanos / 1e9;
    }
    return new GeneratorReport(
        GeneratorReport.SCHEMA_VERSION,
        cfg.describe(),
        cfg.segment().toString(),
        cfg.startAt(),
        StartInstant.clockSource(),
        ClockStart.firstSlotLateMs(senders),
        timing.windowStart(),
        durS,
        Math.max(0, timing.endOfSends() - timing.windowStartNanos()) / 1e9,
        timing.graceWaitedS(),
        senders.size(),
        cfg.sourceAddresses().size(),
        busy,
        senderCpuS,
        runQueueWaitS(senders),
        timing.wakeFloorP99Us() == null ? null : timing.wakeFloorP99Us() / 1000.0,
        headroom,
        agg.generatorBound(),
        agg.generatorBoundReason(),
        incomplete,
        agg,
        perTarget);
  }

  /** Seconds the senders spent runnable but not running, or null when /proc does not say. */
  private static Double runQueueWaitS(List<Sender> senders) {
    long wait = 0;
    for (Sender s : senders) {
      if (s.schedNanos == null) {
        return null;
      }
      wait += s.schedNanos[1];
    }
    return wait / 1e9;
  }

  /** The self-check's cause line, from the senders' scheduler figures. */
  private static String cause(List<Sender> senders, Long wakeFloorP99Us) {
    long cpu = 0;
    long wait = 0;
    long run = 0;
    boolean known = true;
    for (Sender s : senders) {
      run += s.runNanos;
      if (s.schedNanos == null) {
        known = false;
        cpu += Math.max(0, s.cpuNanos);
      } else {
        cpu += s.schedNanos[0];
        wait += s.schedNanos[1];
      }
    }
    return SelfCheck.cause(cpu, known ? wait : null, run, wakeFloorP99Us);
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
