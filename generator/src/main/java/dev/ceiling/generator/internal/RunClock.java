package dev.ceiling.generator.internal;

/** Shared between the engine and the receive side: the clock start, once it is fixed. */
public final class RunClock {
  private volatile long startNanos;
  private final Hooks hooks;

  RunClock(Hooks hooks) {
    this.hooks = hooks;
  }

  long startNanos() {
    return startNanos;
  }

  void start(long nanos) {
    this.startNanos = nanos;
  }

  Hooks hooks() {
    return hooks;
  }
}
