package dev.ceiling.rig.proxy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * What went wrong on one {@link DelayProxy}'s link between {@link DelayProxy#watch()} and {@link
 * #end()}: the window of one cell. It counts connections the relay opened, connections the target
 * refused, connections the target closed or reset while the relay held them open, and stalls
 * (requests the target left unanswered for longer than {@link DelayProxy#STALL_BOUND} beyond the
 * delay in force), with the longest wait for a reply among the stalls and the first failure's
 * offset from the watch's start.
 *
 * <p>Thread-safe: the proxy's event loop reports into it while a cell's thread ends it.
 */
public final class LinkWatch {
  /**
   * One watch's reading.
   *
   * @param opened connections the relay opened through the proxy, >= 0
   * @param refused of those, connections the target refused or could not be reached on, >= 0
   * @param resets connections the target closed or reset while the relay still held them, >= 0
   * @param stalls requests left without a reply for longer than the stall bound, >= 0
   * @param longestNoReply the longest wait for a reply among the stalls (still growing for one not
   *     answered yet), zero when there were none
   * @param firstFailureAfter the first refusal, reset or stalled request (its send) after the
   *     watch's start (zero when it began before), or null when nothing failed
   */
  public record Reading(
      long opened,
      long refused,
      long resets,
      long stalls,
      Duration longestNoReply,
      Duration firstFailureAfter) {
    public Reading {
      if (opened < 0 || refused < 0 || resets < 0 || stalls < 0) {
        throw new IllegalArgumentException(
            "link counts must be >= 0, got opened="
                + opened
                + " refused="
                + refused
                + " resets="
                + resets
                + " stalls="
                + stalls);
      }
      java.util.Objects.requireNonNull(longestNoReply, "longest_no_reply must not be null");
    }

    /** True when the target refused, dropped or left a request unanswered in the window. */
    public boolean failed() {
      return refused > 0 || resets > 0 || stalls > 0;
    }
  }

  private final DelayProxy proxy;
  private final long startNanos;
  private final Set<Long> stallIds = new HashSet<>();
  private long opened;
  private long refused;
  private long resets;
  private long longestNoReplyNanos;
  private Long firstFailureNanos;
  private Reading ended;

  LinkWatch(DelayProxy proxy, long startNanos) {
    this.proxy = proxy;
    this.startNanos = startNanos;
  }

  /** Stops watching and returns the reading; later calls return the same reading. */
  public synchronized Reading end() {
    if (ended == null) {
      proxy.unwatch(this);
      ended = reading();
    }
    return ended;
  }

  /** The reading so far, without ending the watch. */
  public synchronized Reading reading() {
    if (ended != null) {
      return ended;
    }
    return new Reading(
        opened,
        refused,
        resets,
        stallIds.size(),
        Duration.ofNanos(longestNoReplyNanos),
        firstFailureNanos == null
            ? null
            : Duration.ofNanos(Math.max(0, firstFailureNanos - startNanos)));
  }

  synchronized void opened() {
    if (ended == null) {
      opened++;
    }
  }

  synchronized void refused(long atNanos) {
    if (ended == null) {
      refused++;
      failedAt(atNanos);
    }
  }

  synchronized void reset(long atNanos) {
    if (ended == null) {
      resets++;
      failedAt(atNanos);
    }
  }

  /** Request {@code stallId}, sent at {@code sentNanos}, has waited {@code waitedNanos} so far. */
  synchronized void stalled(long stallId, long sentNanos, long waitedNanos) {
    if (ended == null) {
      stallIds.add(stallId);
      longestNoReplyNanos = Math.max(longestNoReplyNanos, waitedNanos);
      failedAt(sentNanos);
    }
  }

  private void failedAt(long atNanos) {
    if (firstFailureNanos == null || atNanos - firstFailureNanos < 0) {
      firstFailureNanos = atNanos;
    }
  }
}
