package dev.ceiling.generator;

import java.time.Instant;

/**
 * Told when the measurement window opens (after the warm-up) and closes, at those instants, so a
 * caller can scrape a relay's metrics exactly around the window. Called on a generator thread that
 * sends nothing; a slow callback delays only the next callback, never a slot.
 */
public interface WindowListener {
  /** Ignores both events. */
  WindowListener NONE =
      new WindowListener() {
        @Override
        public void windowStarted(Instant at) {}

        @Override
        public void windowEnded(Instant at) {}
      };

  void windowStarted(Instant at);

  void windowEnded(Instant at);
}
