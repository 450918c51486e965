package dev.ceiling.generator.internal;

import dev.ceiling.generator.GeneratorException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Maps a shared wall-clock start instant onto this process's monotonic clock, and judges it. */
final class ClockStart {
  private ClockStart() {}

  /**
   * The {@link System#nanoTime()} value of {@code startAt}, read from the wall clock once.
   *
   * @throws GeneratorException when fewer than {@code minLead} remain: this process is not ready at
   *     the instant, and starting late would shift its segment of the shared schedule
   */
  static long startNanos(Instant startAt, Duration minLead) throws GeneratorException {
    long nanoNow = System.nanoTime();
    Instant wallNow = Instant.now();
    long leftNanos = Duration.between(wallNow, startAt).toNanos();
    if (leftNanos < minLead.toNanos()) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          String.format(
              java.util.Locale.ROOT,
              "not ready at the start instant %s: connections were up and warm at %s, %.1f ms %s"
                  + " it (at least %d ms before it is needed); refusing to start late, which would"
                  + " shift this segment against the others. Give the processes more time before"
                  + " --start-at.",
              startAt,
              wallNow,
              Math.abs(leftNanos) / 1e6,
              leftNanos < 0 ? "after" : "before",
              minLead.toMillis()));
    }
    return nanoNow + leftNanos;
  }

  /** Time from now until {@code startAt}; zero when it is null or has passed. */
  static Duration untilStart(Instant startAt) {
    if (startAt == null) {
      return Duration.ZERO;
    }
    Duration d = Duration.between(Instant.now(), startAt);
    return d.isNegative() ? Duration.ZERO : d;
  }

  /**
   * How late this process's first slot went out, ms (warm-up slots included: the first one sent is
   * the start's test), or null when nothing was sent.
   */
  static Double firstSlotLateMs(List<Sender> senders) {
    Sender first = null;
    for (Sender s : senders) {
      if (s.firstSendNanos != 0 && (first == null || s.firstDueNanos < first.firstDueNanos)) {
        first = s;
      }
    }
    return first == null ? null : Math.max(0, first.firstSendNanos - first.firstDueNanos) / 1e6;
  }
}
