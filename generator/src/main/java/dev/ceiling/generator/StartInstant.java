package dev.ceiling.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The shared start instant of a scaled-out schedule ({@code --start-at}): N processes, on one
 * machine or many, each run segment i/N of one schedule whose slot 0 is due at this wall-clock
 * instant. A process maps the instant onto its monotonic clock once, after its connections are up
 * and warm, and never moves it: a process that is not ready in time refuses to run, because
 * starting late would shift its share of the slots against the others' and the merged report would
 * describe a schedule nobody offered.
 */
public final class StartInstant {
  /**
   * The least time between "connected and warm" and the start instant: enough for the sender
   * threads to start and park before slot 0, the same lead a process without a start instant uses.
   */
  public static final Duration MIN_LEAD = Duration.ofMillis(100);

  private static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
  private static final Path KERNEL_CLOCKSOURCE =
      Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

  private StartInstant() {}

  /**
   * Parses an ISO-8601 instant such as {@code 2026-12-01T06:30:00Z} (what {@code date -u +%FT%TZ}
   * prints).
   *
   * @throws IllegalArgumentException naming the expected shape
   */
  public static Instant parse(String text) {
    try {
      return Instant.parse(text == null ? "" : text.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "must be an ISO-8601 UTC instant like 2026-12-01T06:30:00Z, got '" + text + "'", e);
    }
  }

  /** What is wrong with {@code at} as a start instant, if anything (null means "none given"). */
  static Optional<String> problem(Instant at) {
    if (at != null && at.isBefore(EARLIEST)) {
      return Optional.of(
          "start at must be an instant after 2000-01-01, got " + at + " (wrong unit or zone?)");
    }
    return Optional.empty();
  }

  /**
   * This process's clock source, recorded in the report so that segments from different machines
   * can be judged: the wall clock maps the start instant (CLOCK_REALTIME, so its sync with the
   * other machines decides how well their slots interleave) and the monotonic clock paces every
   * slot after that. On Linux the kernel's clocksource (tsc, kvm-clock, hpet...) is named too.
   */
  public static String clockSource() {
    String kernel;
    try {
      kernel = Files.readString(KERNEL_CLOCKSOURCE, StandardCharsets.US_ASCII).trim();
    } catch (IOException | RuntimeException e) {
      kernel = "unknown";
    }
    return "wall: java.time system UTC clock (CLOCK_REALTIME) maps the start instant once;"
        + " pacing: System.nanoTime (CLOCK_MONOTONIC); kernel clocksource: "
        + kernel;
  }
}
