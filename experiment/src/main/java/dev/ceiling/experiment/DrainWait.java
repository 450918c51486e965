package dev.ceiling.experiment;

import dev.ceiling.core.model.DrainTimeout;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import java.net.URI;
import java.time.Duration;

/**
 * Waits until the relay's backlog is back to its baseline before a cell: the queue at its resting
 * depth and audit completions caught up with accepted events. Repeats run inside the previous
 * cell's drain window inherit its backlog and are not independent draws, so a wait that runs out of
 * time is recorded in the next cell ({@link DrainTimeout}), which the verdict then excludes.
 */
final class DrainWait {
  /** How often the wait polls the relay's metrics. */
  private static final Duration POLL = Duration.ofMillis(100);

  private DrainWait() {}

  /**
   * How the wait ended.
   *
   * @param waitedS seconds waited
   * @param timeout what was still outstanding when the wait gave up, or null when it drained
   */
  record Result(double waitedS, DrainTimeout timeout) {}

  /** Nothing to wait for: an arm without a queue. */
  static Result none() {
    return new Result(0.0, null);
  }

  static Result waitFor(
      MetricsScraper scraper, RigDescriptor rig, Backlog baseline, Duration timeout)
      throws MetricsException {
    URI metrics = URI.create(rig.metricsUrl());
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    while (true) {
      Backlog now = Backlog.read(rig, scraper.scrape(metrics));
      double waited = (System.nanoTime() - start) / 1e9;
      if (now.drainedTo(baseline)) {
        return new Result(waited, null);
      }
      if (System.nanoTime() > deadline) {
        return new Result(waited, timedOut(now, baseline, timeout));
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Result(waited, timedOut(now, baseline, timeout));
      }
    }
  }

  private static DrainTimeout timedOut(Backlog now, Backlog baseline, Duration timeout) {
    Double outstanding =
        now.acceptedMinusCompleted() == null || baseline.acceptedMinusCompleted() == null
            ? null
            : now.acceptedMinusCompleted() - baseline.acceptedMinusCompleted();
    return new DrainTimeout(
        Math.max(timeout.toNanos() / 1e9, 1e-9),
        nonNegative(now.queueDepth()),
        nonNegative(baseline.queueDepth()),
        outstanding);
  }

  private static Double nonNegative(Double v) {
    return v == null || !Double.isFinite(v) || v < 0 ? null : v;
  }

  /** A relay without metrics: events still without an OK when the generator stopped waiting. */
  static DrainTimeout unanswered(long unacknowledged, Duration timeout) {
    return unacknowledged == 0
        ? null
        : new DrainTimeout(
            Math.max(timeout.toNanos() / 1e9, 1e-9), null, null, (double) unacknowledged);
  }
}
