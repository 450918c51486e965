package dev.ceiling.generator.internal;

import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.Segment;
import dev.ceiling.generator.TargetLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a run's pre-signed events fit: at most 2^31 per target (they are indexed by int) and, all
 * targets together, in this JVM's heap. Checked with the configuration, before a byte is allocated,
 * so an oversized plan is a usage error naming the figures, never an OutOfMemoryError.
 */
public final class PlanSize {
  /**
   * A pre-signed event's heap cost beside its content, bytes: the encoded {@code ["EVENT",...]}
   * frame (id, pubkey, signature, tags: about 260 bytes), its id string (about 110) and its entry
   * in the id-to-slot map (about 70), rounded up.
   */
  static final long BYTES_PER_EVENT_BESIDE_CONTENT = 512;

  /** The share of the heap pre-signed events may take; the run needs the rest. */
  private static final double HEAP_SHARE = 0.5;

  private PlanSize() {}

  /** 1e9 as "1000000000", 0.5 as "0.5": as a user would have typed it. */
  private static String plain(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /**
   * Every problem with the plan's size; empty when it fits.
   *
   * @param loads the targets (null entries are skipped: the caller names them)
   * @param scheduleLength warm-up plus measured window
   * @param segment this process's share of each schedule
   * @param heapBytes the most heap this JVM may use ({@link Runtime#maxMemory()})
   */
  public static List<String> problems(
      List<TargetLoad> loads, Duration scheduleLength, Segment segment, long heapBytes) {
    List<String> p = new ArrayList<>();
    double totalBytes = 0;
    long nanos = scheduleLength.toNanos();
    for (int i = 0; i < loads.size(); i++) {
      TargetLoad l = loads.get(i);
      if (l == null || !(l.ratePerS() > 0) || Double.isInfinite(l.ratePerS()) || nanos <= 0) {
        continue;
      }
      long events = new Schedule(l.ratePerS(), nanos, segment, 1).ownedSlots();
      if (events > GeneratorConfig.MAX_EVENTS_PER_TARGET) {
        p.add(
            String.format(
                Locale.ROOT,
                "target %d needs %d events (%s events/s for %s s, warm-up included); at most"
                    + " 2^31 per run: lower the rate or the duration",
                i + 1,
                events,
                plain(l.ratePerS()),
                plain(nanos / 1e9)));
      }
      totalBytes += events * (double) (BYTES_PER_EVENT_BESIDE_CONTENT + l.target().contentBytes());
    }
    double allowed = heapBytes * HEAP_SHARE;
    if (p.isEmpty() && totalBytes > allowed) {
      p.add(
          String.format(
              Locale.ROOT,
              "pre-signing the run's events needs about %.0f MiB, more than half of this JVM's"
                  + " %d MiB heap: lower the rate or the duration (or raise -Xmx)",
              totalBytes / (1 << 20),
              heapBytes >> 20));
    }
    return p;
  }
}
