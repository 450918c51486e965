package dev.ceiling.verdict;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A sliding-window limiter as nostream runs it, independent of the code under test: per key, every
 * attempt is stamped (in milliseconds) into the set, refused ones too, and an attempt is refused
 * when more than L stamps lie in the last W seconds.
 */
final class SlidingWindowSim {
  private SlidingWindowSim() {}

  /**
   * Refusals in [warmup, warmup + window] of a fresh limiter that counts every attempt per key, the
   * offer spread round-robin over the keys at evenly spaced send times (milliseconds, as nostream
   * stamps its hits).
   */
  static int refusedInWindow(
      DeclaredBudget b, int keys, double offeredPerS, double warmupS, double windowS) {
    long windowMs = Math.round(b.windowS() * 1000);
    long endMs = Math.round((warmupS + windowS) * 1000);
    long fromMs = Math.round(warmupS * 1000);
    List<Deque<Long>> hits = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      hits.add(new ArrayDeque<>());
    }
    int refused = 0;
    for (long j = 0; ; j++) {
      long t = (long) Math.floor(j * 1000 / offeredPerS);
      if (t > endMs) {
        return refused;
      }
      Deque<Long> h = hits.get((int) (j % keys));
      while (!h.isEmpty() && h.peekFirst() <= t - windowMs) {
        h.pollFirst();
      }
      h.addLast(t);
      if (h.size() > b.limit() && t >= fromMs) {
        refused++;
      }
    }
  }
}
