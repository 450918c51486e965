package dev.ceiling.rig.proxy;

/**
 * What a {@link DelayProxy} has carried since it started: a snapshot, so a cell can take one before
 * and one after and compute turns per accepted event from the difference.
 *
 * @param connections connections accepted from the client side, >= 0
 * @param failedConnects accepted connections whose target refused or could not be reached, >= 0
 * @param turns wire turns: times a connection's traffic flipped from client-to-target to
 *     target-to-client, i.e. sequential round trips, >= 0
 * @param bytesToTarget bytes read from clients (and forwarded to the target), >= 0
 * @param bytesToClient bytes read from the target (and forwarded to clients), >= 0
 * @param releasedChunks chunks released after their hold, >= 0
 * @param releaseLatenessNanos summed time each released chunk left after its due instant (the
 *     timer's wake floor plus any queueing behind earlier chunks), nanoseconds, >= 0
 */
public record LinkCounters(
    long connections,
    long failedConnects,
    long turns,
    long bytesToTarget,
    long bytesToClient,
    long releasedChunks,
    long releaseLatenessNanos) {

  public LinkCounters {
    nonNegative("connections", connections);
    nonNegative("failed_connects", failedConnects);
    nonNegative("turns", turns);
    nonNegative("bytes_to_target", bytesToTarget);
    nonNegative("bytes_to_client", bytesToClient);
    nonNegative("released_chunks", releasedChunks);
    nonNegative("release_lateness_nanos", releaseLatenessNanos);
  }

  /**
   * What happened between {@code before} and this snapshot (of the same proxy).
   *
   * @throws IllegalArgumentException if {@code before} is later than this (a counter went back)
   */
  public LinkCounters minus(LinkCounters before) {
    return new LinkCounters(
        connections - before.connections,
        failedConnects - before.failedConnects,
        turns - before.turns,
        bytesToTarget - before.bytesToTarget,
        bytesToClient - before.bytesToClient,
        releasedChunks - before.releasedChunks,
        releaseLatenessNanos - before.releaseLatenessNanos);
  }

  /** Mean lateness of a released chunk after its due instant, ms; null when none was released. */
  public Double meanReleaseLatenessMillis() {
    return releasedChunks == 0 ? null : releaseLatenessNanos / 1e6 / releasedChunks;
  }

  private static void nonNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0, got " + value);
    }
  }
}
