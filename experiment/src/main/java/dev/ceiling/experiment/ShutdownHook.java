package dev.ceiling.experiment;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C handling for a run in this JVM, written once for the experiment and the CLI's commands. On
 * a signal the hook tells the run to stop ({@code onSignal}), holds the JVM's exit until the run
 * has {@link #close() closed} this hook or {@code grace} has passed, then does {@code afterWait}
 * (the last-resort cleanup). The JVM exits once every hook has returned, so holding it is what lets
 * an interrupted run write and print what it measured.
 *
 * <pre>{@code
 * try (ShutdownHook hook = ShutdownHook.install("ceiling-sweep", sweep::interrupt, grace, () -> {})) {
 *   ... run ...
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} is idempotent.
 */
public final class ShutdownHook implements AutoCloseable {
  private final Runnable onSignal;

  /**
   * How long a round's hook holds the exit after asking it to stop: the running cell, the last
   * write and the relay's stop (a cell lasts seconds); past it the hook's last resort runs.
   */
  public static final Duration INTERRUPT_GRACE = Duration.ofSeconds(60);

  private final Duration grace;
  private final Runnable afterWait;
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread thread;
  private volatile boolean installed;

  ShutdownHook(String threadName, Runnable onSignal, Duration grace, Runnable afterWait) {
    this.onSignal = Objects.requireNonNull(onSignal, "onSignal");
    this.grace = Objects.requireNonNull(grace, "grace");
    this.afterWait = Objects.requireNonNull(afterWait, "afterWait");
    this.thread = new Thread(this::onShutdown, Objects.requireNonNull(threadName, "threadName"));
  }

  /**
   * Installs a hook as a JVM shutdown hook.
   *
   * @param threadName the hook thread's name (shows in thread dumps)
   * @param onSignal runs first on a signal: asks the run to stop; must not block
   * @param grace the longest the hook holds the exit for the run to finish, > 0
   * @param afterWait runs after the run finished or the grace passed
   */
  public static ShutdownHook install(
      String threadName, Runnable onSignal, Duration grace, Runnable afterWait) {
    ShutdownHook h = new ShutdownHook(threadName, onSignal, grace, afterWait);
    Runtime.getRuntime().addShutdownHook(h.thread);
    h.installed = true;
    return h;
  }

  /** A hook that is not installed: {@link #close()} does nothing (an embedder handles Ctrl-C). */
  public static ShutdownHook none() {
    return new ShutdownHook("ceiling-no-hook", () -> {}, Duration.ZERO, () -> {});
  }

  /** What the hook thread does on a signal. */
  void onShutdown() {
    onSignal.run();
    try {
      finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    afterWait.run();
  }

  /** The run has finished: releases a waiting hook and removes it from the JVM. */
  @Override
  public void close() {
    finished.countDown();
    if (installed) {
      installed = false;
      try {
        Runtime.getRuntime().removeShutdownHook(thread);
      } catch (IllegalStateException e) {
        // Already shutting down: the hook is running, was released above and finishes on its own.
      }
    }
  }
}
