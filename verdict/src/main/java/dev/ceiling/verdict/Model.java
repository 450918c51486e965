package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellBuilder;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Model mode: deterministic fluid-queue arithmetic that reproduces the fill physics of a bounded
 * queue drained by one worker, for review and tests. NEVER evidence: its half-runs carry {@link
 * #MARKER_KEY} in the rig's relay info, and the verdict fails any run that contains them.
 *
 * <p>The treatment arm offers each rate for the cell's duration; the connection handler enqueues
 * before it acknowledges, so acceptance is the offer while the queue has room and the worker's rate
 * once it is full. The queue starts empty: the first saturating cells bank up to the queue's
 * capacity in free acceptances (C / duration per second), and a rate just above the drain rate
 * fills over several repeats. The control arm has no queue and accepts everything. There is no
 * grace period: an event not enqueued by the cell's end is not accepted. Pure; thread-safe.
 */
public final class Model {
  /** The relay-info key that marks a half-run as model output. */
  public static final String MARKER_KEY = "ceiling_model";

  /** Its value, and what every model output says of itself. */
  public static final String NEVER_EVIDENCE = "model, never evidence";

  static final String TREATMENT = "on";
  static final String CONTROL = "off";

  /** The model's generator is ideal; this only keeps its cells past the headroom rule. */
  private static final double IDEAL_HEADROOM = 1000.0;

  private Model() {}

  /** Both arms' half-runs, combined. */
  public static CombinedRun simulate(ModelConfig m) {
    ExperimentIdentity id =
        new ExperimentIdentity(
            "model",
            TREATMENT,
            CONTROL,
            m.ratesPerS(),
            m.durationS(),
            m.repeats(),
            "ascending",
            null,
            List.of("model.localhost"),
            Map.of(),
            m.queueCapacity(),
            "model",
            null,
            null,
            null,
            java.util.Map.of());
    return new CombinedRun(id, half(id, m, true), half(id, m, false));
  }

  /** The model's report: the verdict is computed for review and is never established. */
  public static ExperimentReport report(ModelConfig m, VerdictConfig cfg) {
    return ExperimentReport.of(simulate(m), cfg);
  }

  private static HalfRun half(ExperimentIdentity id, ModelConfig m, boolean treatment) {
    String arm = treatment ? TREATMENT : CONTROL;
    double mu = m.workerRatePerS();
    double cap = m.queueCapacity();
    double t = m.durationS();
    double queue = 0;
    int seq = 0;
    List<Cell> cells = new ArrayList<>();
    for (double rate : m.ratesPerS()) {
      for (int rep = 0; rep < m.repeats(); rep++) {
        if (seq > 0) {
          queue = Math.max(0, queue - mu * m.gapBetweenCellsS());
        }
        long offered = Math.round(rate * t);
        CellBuilder b =
            Cell.builder()
                .arm(arm)
                .offeredPerS(rate)
                .repeat(rep)
                .sequence(seq)
                .startedAt(
                    Instant.EPOCH.plusMillis(Math.round(seq * (t + m.gapBetweenCellsS()) * 1000)))
                .durationRequestedS(t)
                .durationElapsedS(t)
                .attempted(offered)
                .warmupSlotsSent(0L)
                .headroom(IDEAL_HEADROOM);
        double jitter = 1 + (rep - (m.repeats() - 1) / 2.0) * m.jitterStep();
        if (!treatment) {
          long acc = Math.min(offered, Math.round(offered * jitter));
          b.accepted(acc)
              .unacknowledged(offered - acc)
              .counterDeltas(
                  Map.of(
                      MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 0.0,
                      MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE.key(), 0.0));
        } else {
          double accepted;
          double completed;
          double busySeconds;
          double next;
          if (rate > mu) {
            double fill = (cap - queue) / (rate - mu);
            if (fill >= t) {
              accepted = rate * t;
              next = queue + (rate - mu) * t;
            } else {
              accepted = mu * t + (cap - queue);
              next = cap;
            }
            completed = mu * t;
            busySeconds = t;
          } else {
            accepted = rate * t;
            double empty = rate == mu ? Double.POSITIVE_INFINITY : queue / (mu - rate);
            if (queue > 0 && empty >= t) {
              completed = mu * t;
              busySeconds = t;
              next = queue - (mu - rate) * t;
            } else {
              completed = rate * t + queue;
              busySeconds = completed / mu;
              next = 0;
            }
          }
          // The variation is in what the window counted, not in the queue's state.
          long acc = Math.min(offered, Math.round(accepted * jitter));
          long done = Math.round(completed);
          // Open loop: every slot is sent; those the full queue turned away go unanswered.
          b.accepted(acc)
              .unacknowledged(offered - acc)
              .counterDeltas(
                  Map.of(
                      MetricRole.ADMISSION_REJECTIONS_QUOTA.key(), 0.0,
                      MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE.key(), 0.0,
                      MetricRole.AUDIT_WRITE_ERRORS.key(), 0.0,
                      MetricRole.AUDIT_ENQUEUE_ERRORS.key(), 0.0,
                      MetricRole.AUDIT_LOG_COUNT.key(), (double) done))
              .auditCompleted(done)
              .auditCompletedPerS(done / t)
              .auditServiceMeanMs(1000.0 / mu)
              .auditBusyFraction(Math.min(1.0, busySeconds / t))
              .outstandingDelta(acc - done)
              .queueDepthBefore(queue)
              .queueDepthAfter(next);
          queue = next;
        }
        cells.add(b.build());
        seq++;
      }
    }
    RigDescriptor rig =
        new RigDescriptor(
            SchemaVersion.CURRENT,
            "model-" + arm,
            "model",
            arm,
            null,
            null,
            null,
            null,
            "model:health",
            "model:metrics",
            RigDescriptor.EVIDENCE_METRICS,
            List.of(new Target("model", "ws://model.localhost/", null, List.of(), 1, 0)),
            Map.of(),
            treatment ? m.queueCapacity() : null,
            true,
            Map.of(),
            List.of(),
            Map.of(MARKER_KEY, NEVER_EVIDENCE, "config", m.describe()),
            null,
            null,
            null,
            "model",
            null,
            null);
    return new HalfRun(
        SchemaVersion.CURRENT, id, arm, rig, Instant.EPOCH, Instant.EPOCH, true, null, cells);
  }
}
