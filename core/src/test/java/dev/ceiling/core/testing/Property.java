package dev.ceiling.core.testing;

import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Seeded property checks on plain JUnit 5. Every run draws a base seed (or takes {@code
 * -Dceiling.seed=N}), runs {@code tries} cases from generators seeded deterministically from it,
 * and on failure names the seed and the try so the exact case can be replayed.
 *
 * <p>Why not a property-testing framework: jqwik is excluded by policy, and the rest either run on
 * JUnit 4 or are unmaintained; a seeded loop with a printed seed gives us replayability, which is
 * the part we need.
 */
public final class Property {
  private Property() {}

  /** Runs {@code body} {@code tries} times with independent, seeded generators. */
  public static void forAll(String name, int tries, Consumer<SplittableRandom> body) {
    long seed = baseSeed();
    SplittableRandom root = new SplittableRandom(seed);
    for (int i = 0; i < tries; i++) {
      SplittableRandom rnd = root.split();
      try {
        body.accept(rnd);
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(
            "property '"
                + name
                + "' failed on try "
                + i
                + " of "
                + tries
                + " with seed "
                + seed
                + " (replay: -Dceiling.seed="
                + seed
                + "): "
                + e.getMessage(),
            e);
      }
    }
  }

  /** The base seed: {@code -Dceiling.seed} when given, else a fresh random one. */
  public static long baseSeed() {
    String given = System.getProperty("ceiling.seed");
    return given != null ? Long.parseLong(given) : new SecureRandom().nextLong();
  }
}
