package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/**
 * A command's range checks, every broken one at once: {@link #orFail} throws one usage error (exit
 * 2, one line, each problem naming its option). picocli already refused what is not a number (and,
 * with {@link CommandLines}, NaN and infinity); these are the ranges a run can honour.
 */
final class Checks {
  /** Longest measurement window or model cell: a day. Longer is a typo (1e12 seconds). */
  static final double MAX_DURATION_S = 86_400;

  /** Longest warm-up, seconds. */
  static final double MAX_WARMUP_S = 3_600;

  /** Most repeats per rate. */
  static final int MAX_REPEATS = 1_000;

  /** Highest rate, events/s: far above what one generator offers; higher is a typo. */
  static final double MAX_RATE_PER_S = 10_000_000;

  /** Most rates in one grid. */
  static final int MAX_RATES = 100;

  private final List<String> problems = new ArrayList<>();

  Checks between(String option, double v, double min, double max, String unit) {
    if (!(v >= min && v <= max)) {
      problems.add(
          String.format(
              Locale.ROOT,
              "%s must be in [%s, %s]%s, got %s",
              option,
              n(min),
              n(max),
              unit.isEmpty() ? "" : " " + unit,
              n(v)));
    }
    return this;
  }

  Checks positive(String option, double v, double max, String unit) {
    if (!(v > 0 && v <= max)) {
      problems.add(
          String.format(
              Locale.ROOT, "%s must be > 0 and at most %s %s, got %s", option, n(max), unit, n(v)));
    }
    return this;
  }

  Checks rates(String option, List<Double> rates) {
    if (rates.isEmpty() || rates.size() > MAX_RATES) {
      problems.add(option + " needs 1 to " + MAX_RATES + " rates, got " + rates.size());
    }
    for (double r : rates) {
      if (!(r > 0 && r <= MAX_RATE_PER_S)) {
        problems.add(
            option
                + " rates must be > 0 and at most "
                + n(MAX_RATE_PER_S)
                + " events/s, got "
                + n(r));
        break;
      }
    }
    return this;
  }

  Checks add(String problem) {
    problems.add(problem);
    return this;
  }

  /** Throws one usage error listing every problem; returns when there is none. */
  void orFail(CommandLine cl) {
    if (!problems.isEmpty()) {
      throw CommandLines.usage(cl, String.join("; ", problems));
    }
  }

  private static String n(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }
}
