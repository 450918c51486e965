package dev.ceiling.relay;

import java.util.HashMap;
import java.util.Map;

/**
 * Tells the writers of one relay when a lease they wait for was given back. H2 has no blocking
 * lock, so a writer that found a lease taken waits here instead of asking the database again and
 * again; a lease given back by another process is noticed when the wait times out and the writer
 * asks once more. Thread-safe.
 */
final class LeaseBoard {
  private final Map<Integer, Long> releases = new HashMap<>();

  /** How many times lease {@code lockId} has been given back: read it before asking for it. */
  synchronized long generation(int lockId) {
    return releases.getOrDefault(lockId, 0L);
  }

  /** Lease {@code lockId} was given back: wakes every writer waiting for it. */
  synchronized void released(int lockId) {
    releases.merge(lockId, 1L, Long::sum);
    notifyAll();
  }

  /**
   * Waits until lease {@code lockId} was given back after {@code generation} was read, or {@code
   * timeoutMillis} passed.
   */
  synchronized void awaitRelease(int lockId, long generation, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    long left;
    while (generation(lockId) == generation && (left = deadline - System.nanoTime()) > 0) {
      wait(Math.max(1, left / 1_000_000));
    }
  }
}
