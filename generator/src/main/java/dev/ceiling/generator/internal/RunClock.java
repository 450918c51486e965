package dev.ceiling.generator.internal;

/** Shared between the engine and the receive side: the clock start, once it is fixed. */
public final class RunClock {
  private volatile long startNanos;
  private final RunStrategies strategies;

  RunClock(RunStrategies strategies) {
    this.strategies = strategies;
  }

  long startNanos() {
    return startNanos;
  }

  void start(long nanos) {
    this.startNanos = nanos;
  }

  RunStrategies strategies() {
    return strategies;
  }
}
