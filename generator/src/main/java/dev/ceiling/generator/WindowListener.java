package dev.ceiling.generator;

import java.time.Instant;

/**
 * Told when the measured window starts (after the warm-up) and ends (when counting stops, at the
 * end of the grace period), so a caller can scrape the relay's counters at exactly those points.
 * Called on the generator's coordinating thread, never on a sender thread; a slow callback delays
 * nothing on the wire, but {@link #windowStarted} should return well within the cell.
 */
public interface WindowListener {
  WindowListener NONE = new WindowListener() {};

  default void windowStarted(Instant at) {}

  default void windowEnded(Instant at) {}
}
