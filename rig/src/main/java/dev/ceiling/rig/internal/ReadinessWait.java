package dev.ceiling.rig.internal;

import java.time.Duration;

/**
 * Waits until a {@link Probe} answers: "is it useful", kept apart from "was it spawned" (which
 * {@link RelayProcess#awaitExec} answers). Polls every {@link #POLL}; an interrupt ends the wait at
 * once with {@link InterruptedException} rather than a result, so a Ctrl-C is never mistaken for a
 * relay that did not become ready, and never spins until the deadline.
 */
public final class ReadinessWait {
  static final Duration POLL = Duration.ofMillis(100);

  /** How the wait ended. */
  public enum Outcome {
    /** The probe answered. */
    READY,
    /** The timeout passed without an answer. */
    TIMED_OUT,
    /** The process being waited for exited first. */
    EXITED
  }

  private ReadinessWait() {}

  /**
   * Polls until the probe answers, the timeout, or (when {@code process} is non-null) its exit.
   *
   * @throws InterruptedException at once when the waiting thread is interrupted
   */
  public static Outcome await(Probe probe, Duration timeout, Process process)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    do {
      if (process != null && !process.isAlive()) {
        return Outcome.EXITED;
      }
      if (probe.answers()) {
        return Outcome.READY;
      }
      Thread.sleep(POLL.toMillis());
    } while (System.nanoTime() - deadline < 0);
    return Outcome.TIMED_OUT;
  }
}
