package dev.ceiling.relay;

import java.util.Random;

/**
 * Seeded draws for the probabilistic faults, so a fault test replays with --seed. Thread-safe:
 * draws are serialized on this object (faults are test-only; the lock costs nothing that matters).
 */
final class FaultDice {
  private final ReferenceRelayConfig.Faults faults;
  private final Random random;

  FaultDice(ReferenceRelayConfig.Faults faults) {
    this.faults = faults;
    this.random = new Random(faults.seed());
  }

  /** True when this admission check finds the limiter unavailable. */
  boolean limiterUnavailable() {
    return draw(faults.limiterUnavailableProbability());
  }

  /** True when this OK is to be withheld. */
  boolean dropOk() {
    return draw(faults.dropOkFraction());
  }

  private boolean draw(double p) {
    if (p <= 0) {
      return false;
    }
    synchronized (this) {
      return random.nextDouble() < p;
    }
  }
}
