package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.core.model.Checks;
import dev.ceiling.generator.GeneratorConfig;
import java.util.List;
import picocli.CommandLine;

/**
 * A command's limits and range checks, every broken one at once: the rules are core's {@link
 * Checks}, and {@link #orFail} turns the problems into one usage error (exit 2, one line, each
 * problem naming its option). picocli already refused what is not a number (and, with {@link
 * CommandLines}, NaN and infinity); these are the ranges a run can honour.
 */
final class OptionChecks {
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

  private final Checks checks = new Checks();

  OptionChecks between(String option, double v, double min, double max, String unit) {
    checks.between(option, v, min, max, unit);
    return this;
  }

  OptionChecks positive(String option, double v, double max, String unit) {
    checks.positiveAtMost(option, v, max, unit);
    return this;
  }

  /**
   * 1 to {@link #MAX_RATES} rates, each in (0, {@link #MAX_RATE_PER_S}]; one line for the rates.
   */
  OptionChecks rates(String option, List<Double> rates) {
    checks.require(
        !rates.isEmpty() && rates.size() <= MAX_RATES,
        option + " needs 1 to " + MAX_RATES + " rates, got " + rates.size());
    for (double r : rates) {
      if (!(r > 0 && r <= MAX_RATE_PER_S)) {
        checks.positiveAtMost(option + " rates", r, MAX_RATE_PER_S, "events/s");
        break;
      }
    }
    return this;
  }

  /** Every problem {@code files} finds: an output over an input or another, a parent not a dir. */
  OptionChecks files(OutputPaths files) {
    files.problems().forEach(checks::add);
    return this;
  }

  /**
   * Each rate over warm-up plus window must need at most {@link
   * GeneratorConfig#MAX_EVENTS_PER_TARGET} events per target, checked before a relay starts.
   */
  OptionChecks planSize(List<Double> rates, double durationS, double warmupS) {
    double worst = rates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double events = Math.ceil(worst * (durationS + warmupS));
    if (Double.isFinite(events) && events > GeneratorConfig.MAX_EVENTS_PER_TARGET) {
      checks.add(
          String.format(
              java.util.Locale.ROOT,
              "--rates %s with --duration %s and --warmup %s needs %.0f events per target in one"
                  + " cell; at most 2^31: lower --rates or --duration",
              CommandLines.FINITE_DOUBLE.format(worst),
              CommandLines.FINITE_DOUBLE.format(durationS),
              CommandLines.FINITE_DOUBLE.format(warmupS),
              events));
    }
    return this;
  }

  OptionChecks add(String problem) {
    checks.add(problem);
    return this;
  }

  /** The problems so far, for a parser that reports into core's {@link Checks}. */
  Checks all() {
    return checks;
  }

  /** Throws one usage error listing every problem; returns when there is none. */
  void orFail(CommandLine cl) {
    try {
      checks.orThrow();
    } catch (IllegalArgumentException e) {
      throw CommandLines.usage(cl, e.getMessage());
    }
  }
}
