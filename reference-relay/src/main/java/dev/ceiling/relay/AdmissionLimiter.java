package dev.ceiling.relay;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Fixed-window admission limiter per (community, who): at most {@code limitPerWindow} events in a
 * window of {@code windowNanos} that starts at the identity's first event after the previous window
 * expired. The relay keeps one keyed by pubkey and, when {@code --limiter-per-ip-events-per-sec} is
 * set, a second keyed by the connection's remote IP address; the class does not care which.
 * Anchoring the window on the first event (rather than on wall-clock multiples) makes "the 51st
 * event within one window is rejected" exact regardless of when a test starts.
 *
 * <p>Thread-safe; each decision is one atomic {@link ConcurrentHashMap#compute}.
 */
public final class AdmissionLimiter {
  private final int limitPerWindow;
  private final long windowNanos;
  private final LongSupplier clockNanos;
  private final ConcurrentHashMap<Key, Window> windows = new ConcurrentHashMap<>();

  private record Key(String community, String who) {}

  private record Window(long startNanos, int used, boolean admitted) {}

  /**
   * @param limitPerWindow events admitted per window, >= 1
   * @param windowNanos window length, > 0 ns
   * @param clockNanos monotonic clock (System::nanoTime in production; a fake in tests)
   */
  public AdmissionLimiter(int limitPerWindow, long windowNanos, LongSupplier clockNanos) {
    if (limitPerWindow < 1) {
      throw new IllegalArgumentException("limitPerWindow must be >= 1, got " + limitPerWindow);
    }
    if (windowNanos <= 0) {
      throw new IllegalArgumentException("windowNanos must be > 0, got " + windowNanos);
    }
    this.limitPerWindow = limitPerWindow;
    this.windowNanos = windowNanos;
    this.clockNanos = clockNanos;
  }

  /** Events admitted per window. */
  public int limitPerWindow() {
    return limitPerWindow;
  }

  /**
   * Returns true and counts the event when admitted; false when the window's quota is spent.
   *
   * @param community the community the event was sent to
   * @param who what the quota is per: the event's pubkey, or the remote IP address
   */
  public boolean tryAdmit(String community, String who) {
    long now = clockNanos.getAsLong();
    if (windows.size() > 200_000) {
      // Bound memory under many identities: expired windows carry no state worth keeping.
      windows.values().removeIf(w -> now - w.startNanos() >= windowNanos);
    }
    Window w =
        windows.compute(
            new Key(community, who),
            (k, old) -> {
              if (old == null || now - old.startNanos() >= windowNanos) {
                return new Window(now, 1, true);
              }
              if (old.used() >= limitPerWindow) {
                return new Window(old.startNanos(), old.used(), false);
              }
              return new Window(old.startNanos(), old.used() + 1, true);
            });
    return w.admitted();
  }
}
