package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellCounts;
import dev.ceiling.core.model.CellEnvironment;
import dev.ceiling.core.model.CellKey;
import dev.ceiling.core.model.CellLatencies;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RelayFigures;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.prom.CounterDelta;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.Reading;
import dev.ceiling.prom.Selector;
import dev.ceiling.prom.Snapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one generator run and the two scrapes around its measurement window into a {@link Cell}.
 * Pure: everything it needs is passed in, so it is tested without a relay.
 */
final class CellAssembler {
  private CellAssembler() {}

  /** The relay-side figures for one window, derived from two scrapes. */
  record Scraped(
      Map<String, Double> deltas,
      List<String> resets,
      Double queueDepthBefore,
      Double queueDepthAfter,
      double windowS) {}

  /**
   * No scrapes: a relay without metrics (client-side contamination evidence). No deltas, no resets,
   * no queue readings; the window is the requested duration.
   */
  static Scraped none(double windowS) {
    return new Scraped(Map.of(), List.of(), null, null, windowS);
  }

  /**
   * Reads every mapped series from both scrapes: counters as deltas (a reset is listed, and its
   * delta is null, never negative), the queue depth as levels, and the audit row count as its
   * change over the window under {@code audit_rows} (null when either scrape lacks it): in the
   * control arm that change must be 0, or the path it claims is off wrote rows.
   */
  static Scraped scrape(RigDescriptor rig, Snapshot before, Snapshot after)
      throws MetricsException {
    Map<String, Double> deltas = new LinkedHashMap<>();
    List<String> resets = new ArrayList<>();
    Double depthBefore = null;
    Double depthAfter = null;
    for (Map.Entry<String, String> e : rig.metricMapping().entrySet()) {
      String key = e.getKey();
      Selector selector = Selector.parse(e.getValue());
      MetricRole role = MetricRole.fromKey(key).orElse(null);
      if (role != null && role.kind() == MetricRole.Kind.GAUGE) {
        if (role == MetricRole.AUDIT_QUEUE_DEPTH) {
          depthBefore = level(before.read(selector));
          depthAfter = level(after.read(selector));
        } else if (role == MetricRole.AUDIT_ROWS) {
          Double rowsBefore = level(before.read(selector));
          Double rowsAfter = level(after.read(selector));
          boolean read =
              rowsBefore != null
                  && rowsAfter != null
                  && Double.isFinite(rowsBefore)
                  && Double.isFinite(rowsAfter);
          deltas.put(key, read ? rowsAfter - rowsBefore : null);
        }
        continue;
      }
      CounterDelta d =
          CounterDelta.between(before, after, selector, rig.positiveControlled().contains(key));
      switch (d.kind()) {
        case INCREASE -> deltas.put(key, d.delta());
        case RESET -> {
          resets.add(key);
          deltas.put(key, null);
        }
        // Not exposed, or a NaN/infinite series: no reading, never a zero.
        case NOT_EXPOSED, NOT_FINITE -> deltas.put(key, null);
      }
    }
    double windowS =
        Math.max(1e-9, Duration.between(before.takenAt(), after.takenAt()).toNanos() / 1e9);
    return new Scraped(deltas, resets, depthBefore, depthAfter, windowS);
  }

  private static Double level(Reading r) {
    return r.exposed() ? r.value() : null;
  }

  /**
   * Builds the cell. The scrape times are not known here: the runner adds them.
   *
   * @param hasQueue false for an arm with no queue (the control arm, whose code path is off): its
   *     outstanding delta and busy fraction are null, never 0, so they can never count as failing
   */
  static Cell assemble(
      PlannedCell planned,
      String arm,
      boolean hasQueue,
      GeneratorReport report,
      Scraped scraped,
      double drainWaitS,
      Double loadBefore,
      Double loadAfter) {
    GeneratorReport.Result r = report.aggregate();
    return new Cell(
        new CellKey(
            arm,
            planned.offeredPerS(),
            planned.repeat(),
            planned.sequence(),
            planned.twoCommunity()),
        counts(report, planned.offeredPerS()),
        new CellLatencies(r.sendLag(), r.service(), r.scheduled()),
        relay(hasQueue, scraped),
        new CellEnvironment(
            report.clockStart(),
            report.durationRequestedS(),
            report.durationElapsedS(),
            report.generatorBound(),
            report.generatorBoundReason(),
            report.headroom(),
            drainWaitS,
            loadBefore,
            loadAfter,
            null,
            null,
            null,
            report.wakeFloorP99Ms(),
            null));
  }

  /**
   * What the generator counted, in the cell's shape: the one place the generator's counts are
   * copied into a cell. The two ratios are rebuilt from the credited in-window count ({@link
   * CellCounts#creditedInWindow()}), the planned offered rate and the requested duration, the
   * definitions {@link Cell} checks them against.
   */
  static CellCounts counts(GeneratorReport report, double offeredPerS) {
    GeneratorReport.Result r = report.aggregate();
    double durationS = report.durationRequestedS();
    Map<String, Long> byCommunity = new LinkedHashMap<>();
    for (GeneratorReport.TargetReport t : report.targets()) {
      byCommunity.merge(t.community(), t.result().accepted(), Long::sum);
    }
    CellCounts plain = counts(r, byCommunity, r.acceptedInWindow(), durationS, offeredPerS);
    return counts(r, byCommunity, plain.creditedInWindow(), durationS, offeredPerS);
  }

  /** The counts with the two ratios built from {@code numerator} (see {@link #counts}). */
  private static CellCounts counts(
      GeneratorReport.Result r,
      Map<String, Long> byCommunity,
      long numerator,
      double durationS,
      double offeredPerS) {
    return new CellCounts(
        r.attempted(),
        r.warmupSlotsSent(),
        r.accepted(),
        r.acceptedInWindow(),
        numerator / durationS,
        numerator / (offeredPerS * durationS),
        r.acceptedInWindowFirstHalf(),
        r.acceptedInWindowSecondHalf(),
        r.acceptedInWindowOwnSlots(),
        r.windowSlotsOutstandingAtEnd(),
        r.outstandingAtWindowStart(),
        r.outstandingAtWindowMid(),
        r.outstandingAtWindowEnd(),
        r.silenceAtWindowEndS(),
        r.rejectedInWindowFirstHalf(),
        r.rejectedInWindowSecondHalf(),
        r.rejected(),
        r.rejectedByPrefix(),
        r.notices(),
        r.firstNotice(),
        r.unacknowledged(),
        r.unknownOkIds(),
        r.transportErrors(),
        byCommunity);
  }

  /** What the relay's metrics showed over the window, derived from the two scrapes. */
  private static RelayFigures relay(boolean hasQueue, Scraped scraped) {
    Double count = scraped.deltas().get(MetricRole.AUDIT_LOG_COUNT.key());
    Double sum = scraped.deltas().get(MetricRole.AUDIT_LOG_SUM_SECONDS.key());
    Double poolBusy = scraped.deltas().get(MetricRole.AUDIT_POOL_BUSY_SECONDS.key());
    return new RelayFigures(
        scraped.deltas(),
        scraped.resets(),
        count == null ? null : Math.round(count),
        count == null ? null : count / scraped.windowS(),
        count == null || sum == null || count == 0 ? null : sum / count * 1000,
        hasQueue && sum != null ? sum / scraped.windowS() : null,
        hasQueue && poolBusy != null ? poolBusy / scraped.windowS() : null,
        hasQueue ? outstanding(scraped) : null,
        scraped.queueDepthBefore(),
        scraped.queueDepthAfter(),
        null);
  }

  /**
   * Backlog growth over the window: the queue depth's change where the relay exposes its depth,
   * else accepted minus completed from the counters; null when neither can be read.
   */
  private static Long outstanding(Scraped s) {
    if (s.queueDepthBefore() != null && s.queueDepthAfter() != null) {
      return Math.round(s.queueDepthAfter() - s.queueDepthBefore());
    }
    Double accepted = s.deltas().get(MetricRole.EVENTS_ACCEPTED.key());
    Double completed = s.deltas().get(MetricRole.AUDIT_LOG_COUNT.key());
    if (accepted == null || completed == null) {
      return null;
    }
    return Math.round(accepted - completed);
  }
}
