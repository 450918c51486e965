package dev.ceiling.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * The parsing rules every Ceiling command shares. {@link #configure} installs them on a command
 * line (and its subcommands): a usage error is exit code {@link ExitCode#USAGE} (2) with one line
 * on stderr naming the argument; a number must be finite (picocli's default accepts "NaN" and
 * "Infinity"); an unexpected exception is exit code 3 with one line.
 */
public final class CommandLines {
  /** The finite-number rule, for numbers inside a spec (a rate list, a target's rate). */
  public static final FiniteDouble FINITE_DOUBLE = new FiniteDouble();

  private CommandLines() {}

  /**
   * Installs the shared rules on {@code cl} and every subcommand it already has; returns it.
   * Register subcommands before calling this.
   */
  public static CommandLine configure(CommandLine cl) {
    cl.registerConverter(Double.class, FINITE_DOUBLE);
    cl.registerConverter(Double.TYPE, FINITE_DOUBLE);
    cl.registerConverter(Duration.class, new DurationConverter());
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine c = ex.getCommandLine();
          // One line: picocli's own messages name the option ("Invalid value for option
          // '--duration': ..."), ours start with the option's name.
          c.getErr()
              .println(
                  "error: "
                      + oneLine(ex.getMessage())
                      + " (see '"
                      + c.getCommandSpec().qualifiedName()
                      + " --help')");
          return ExitCode.USAGE;
        });
    cl.setExecutionExceptionHandler(
        (ex, c, parsed) -> {
          c.getErr().println("error: " + oneLine(String.valueOf(ex)));
          return ExitCode.INFRASTRUCTURE;
        });
    return cl;
  }

  /** A usage error for the command in {@code spec}: exit 2 and {@code message} on one line. */
  public static ParameterException usage(CommandLine cl, String message) {
    return new ParameterException(cl, message);
  }

  /**
   * A message on one line: a multi-line problem list ("cannot combine (2 problems):" then one
   * indented line each) becomes "cannot combine (2 problems): a; b".
   */
  public static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    java.util.List<String> lines =
        s.strip().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    if (lines.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder(lines.get(0));
    for (int i = 1; i < lines.size(); i++) {
      b.append(lines.get(i - 1).endsWith(":") ? " " : "; ").append(lines.get(i));
    }
    return b.toString();
  }

  /** Prints {@code error: MESSAGE} on one line to {@code err}. */
  public static void error(java.io.PrintWriter err, String message) {
    err.println("error: " + oneLine(message));
  }

  /** A double that is a finite number: "NaN", "Infinity" and overflowing literals are refused. */
  public static final class FiniteDouble implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      double d;
      try {
        d = Double.parseDouble(value.trim());
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + value + "' is not a number");
      }
      if (!Double.isFinite(d)) {
        throw new TypeConversionException("'" + value + "' is not a finite number");
      }
      return d;
    }
  }

  /**
   * "1.5s", "500ms", "2m", a bare number of seconds, or ISO-8601 ("PT10S"); finite and > 0, at most
   * a year (longer is a typo, and would overflow the schedule's arithmetic).
   */
  public static final class DurationConverter implements ITypeConverter<Duration> {
    static final double MAX_SECONDS = 366 * 86_400.0;

    @Override
    public Duration convert(String value) {
      String t = value.trim().toLowerCase(Locale.ROOT);
      double seconds;
      try {
        if (t.startsWith("pt")) {
          seconds = Duration.parse(value.trim()).toNanos() / 1e9;
        } else if (t.endsWith("ms")) {
          seconds = Double.parseDouble(t.substring(0, t.length() - 2)) / 1000;
        } else if (t.endsWith("s")) {
          seconds = Double.parseDouble(t.substring(0, t.length() - 1));
        } else if (t.endsWith("m")) {
          seconds = Double.parseDouble(t.substring(0, t.length() - 1)) * 60;
        } else {
          seconds = Double.parseDouble(t);
        }
      } catch (RuntimeException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a duration like 10s, 500ms, 2m or PT10S");
      }
      if (!(seconds > 0) || seconds > MAX_SECONDS) {
        throw new TypeConversionException(
            "'" + value + "' must be a duration > 0 and at most 366 days");
      }
      return Duration.ofNanos(Math.round(seconds * 1e9));
    }
  }
}
