package dev.ceiling.cli.command;

import dev.ceiling.experiment.DelaySweepPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --at LINK=DELAY} (repeatable, one per link): the round-trip time a link has in production,
 * which loopback does not. The link's delay sweep then measures a holdout there, left out of its
 * lines, and says what the lines predict at that delay and whether the holdout fell inside. picocli
 * parses each value ({@link DelayMs}: a number is ms, or with a unit: 1.5ms, 1500us, 0.0015s); the
 * checks against the profile and the grid are {@link #check}'s, all at once.
 */
final class WhatIfOption {
  static final String OPTION = "--at";

  @Option(
      names = OPTION,
      paramLabel = "LINK=DELAY",
      converter = {NoConversion.class, DelayMs.class},
      // One string: picocli prints each element of a description array on its own line, and
      // wraps each again at the column, which left half-empty lines.
      description =
          "A checked what-if: the round-trip time LINK has in production, e.g. db=1.5ms (a bare"
              + " number is ms; us and s also work). Repeatable, one per link. The link's sweep"
              + " then also measures --repeats holdout cells at that delay, shuffled with the"
              + " grid's and left out of both lines, and reports the ceiling and OK latency the"
              + " lines predict there (with their prediction intervals), what the holdout"
              + " measured, and inside/outside. Off the --delays grid, and within the delay"
              + " proxy's limit.")
  Map<String, Double> msByLink = new LinkedHashMap<>();

  /** A key as given. */
  static final class NoConversion implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      return value;
    }
  }

  /** A delay: a bare number of ms, or a number with ms, us or s; finite and &gt;= 0. */
  static final class DelayMs implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      String t = value.trim().toLowerCase(Locale.ROOT);
      double scale = 1;
      if (t.endsWith("ms")) {
        t = t.substring(0, t.length() - 2);
      } else if (t.endsWith("us") || t.endsWith("µs")) {
        t = t.substring(0, t.length() - 2);
        scale = 1e-3;
      } else if (t.endsWith("s")) {
        t = t.substring(0, t.length() - 1);
        scale = 1e3;
      }
      double ms;
      try {
        ms = Double.parseDouble(t.trim()) * scale;
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a delay like 1.5ms, 1500us or 0.0015s");
      }
      if (!Double.isFinite(ms) || ms < 0) {
        throw new TypeConversionException("'" + value + "' must be a finite delay >= 0");
      }
      return ms;
    }
  }

  /**
   * Adds what is wrong with these what-ifs for a sweep of {@code swept} (links) over {@code
   * delaysMs} on a profile declaring {@code declared}: a link without a delay, one the profile does
   * not declare or that is not swept, and a delay on the grid or beyond the proxy's limit.
   */
  void check(OptionChecks out, List<String> swept, List<String> declared, List<Double> delaysMs) {
    msByLink.forEach(
        (link, ms) -> {
          if (!declared.contains(link)) {
            out.add(OPTION + ": link '" + link + "' is not a link of the profile: " + declared);
          } else if (!swept.contains(link)) {
            out.add(OPTION + ": link '" + link + "' is not swept (--link " + swept + ")");
          } else {
            DelaySweepPlan.problemsOfHoldout(delaysMs, ms)
                .forEach(q -> out.add(OPTION + " " + link + ": " + q));
          }
        });
  }

  /** The what-ifs by link, for the sweep's options. */
  Map<String, Double> byLink() {
    return Map.copyOf(msByLink);
  }
}
