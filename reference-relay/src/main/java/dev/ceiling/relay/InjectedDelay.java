package dev.ceiling.relay;

import java.util.concurrent.atomic.LongAdder;

/**
 * The delay the audit path injects before each of its database exchanges, and how many delayed
 * exchanges it has made. The delay is the configured one ({@code --audit-exchange-delay-ms}) plus
 * an added one that {@code PUT /audit-exchange-delay} sets while the relay runs, so a delay sweep
 * can move it between cells without a restart; an entry reads it once, so every exchange of one
 * entry has the same delay. The count is what a sweep divides by the entries written: the relay's
 * own count of the round trips it delays, beside a proxy's wire count, with how late their delays
 * ended in sum (what a proxy reports as its release lateness).
 *
 * <p>Thread-safe.
 */
final class InjectedDelay {
  /** The largest delay, configured plus added, ms: the configuration's own bound. */
  static final double MAX_MILLIS = 10_000;

  private final double configuredMillis;
  private volatile double addedMillis;
  private final LongAdder exchanges = new LongAdder();
  private final LongAdder latenessNanos = new LongAdder();

  InjectedDelay(double configuredMillis) {
    this.configuredMillis = configuredMillis;
  }

  /** The delay before each exchange now, configured plus added, ns. */
  long nanos() {
    return Math.round((configuredMillis + addedMillis) * 1_000_000);
  }

  /** The added delay, ms (0 until set). */
  double addedMillis() {
    return addedMillis;
  }

  double configuredMillis() {
    return configuredMillis;
  }

  /**
   * Sets the added delay.
   *
   * @throws IllegalArgumentException naming the value when it is negative, not finite, or would
   *     take the whole delay above {@link #MAX_MILLIS}
   */
  void setAddedMillis(double millis) {
    if (!(millis >= 0 && configuredMillis + millis <= MAX_MILLIS)) {
      throw new IllegalArgumentException(
          "added delay must be in [0, "
              + (MAX_MILLIS - configuredMillis)
              + "] ms (the configured "
              + configuredMillis
              + " ms plus it at most "
              + MAX_MILLIS
              + " ms), got "
              + millis);
    }
    addedMillis = millis;
  }

  /**
   * Counts one delayed exchange whose delay ended {@code lateNanos} after it was due: a sleep's
   * wake-up can come later than asked, and by more the longer the sleep, so a sweep needs the delay
   * really added, not only the one asked for.
   */
  void exchanged(long lateNanos) {
    exchanges.increment();
    latenessNanos.add(lateNanos);
  }

  /** Summed lateness of the delayed exchanges' delays, ns. */
  long latenessNanos() {
    return latenessNanos.sum();
  }

  /** Delayed exchanges made since the relay started. */
  long exchanges() {
    return exchanges.sum();
  }
}
