package dev.ceiling.generator;

/**
 * Receives human-readable progress lines (phases, one line a second while sending). Called from the
 * generator's coordinating thread only; must not block for long.
 */
@FunctionalInterface
public interface ProgressListener {
  /** Discards progress. */
  ProgressListener NONE = line -> {};

  void progress(String line);
}
