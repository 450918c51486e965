package dev.ceiling.cli;

import dev.ceiling.core.net.Redaction;
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
                      + oneLine(Redaction.redact(ex.getMessage()))
                      + " (see '"
                      + c.getCommandSpec().qualifiedName()
                      + " --help')");
          return ExitCode.USAGE;
        });
    cl.setExecutionExceptionHandler(
        (ex, c, parsed) -> {
          error(c.getErr(), describe(ex));
          return ExitCode.INFRASTRUCTURE;
        });
    return cl;
  }

  /**
   * Runs {@code cl}; an {@link Error} (out of memory, a stack overflow), which picocli lets
   * through, becomes one {@code error:} line and exit 3 instead of a stack trace and the JVM's exit
   * 1, which would read as "not established".
   */
  public static int executeCatchingErrors(CommandLine cl, String... args) {
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError e) {
      cl.getErr()
          .println(
              "error: out of memory ("
                  + (Runtime.getRuntime().maxMemory() >> 20)
                  + " MiB heap): "
                  + oneLine(e.getMessage())
                  + "; lower the load or raise -Xmx");
      return ExitCode.INFRASTRUCTURE;
    } catch (Error e) {
      error(cl.getErr(), describe(e));
      return ExitCode.INFRASTRUCTURE;
    }
  }

  /** A failure's message for a user: its own message, the class name only when it has none. */
  static String describe(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
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

  /** Prints {@code error: MESSAGE} on one line to {@code err}, credentials in URLs redacted. */
  public static void error(java.io.PrintWriter err, String message) {
    err.println("error: " + oneLine(Redaction.redact(message)));
  }

  /** A double that is a finite number: "NaN", "Infinity" and overflowing literals are refused. */
  public static final class FiniteDouble implements ITypeConverter<Double> {
    /** A number as a user would type it back: "86400", not "86400.0"; "0.5" stays "0.5". */
    public String format(double d) {
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

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
      return seconds(seconds);
    }
  }

  /**
   * A number of seconds as a {@link Duration}, to the nanosecond: the one conversion for the
   * options given in seconds ({@code --duration SECONDS}) and for {@link DurationConverter}.
   */
  public static Duration seconds(double seconds) {
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }
}
