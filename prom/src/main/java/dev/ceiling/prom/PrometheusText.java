package dev.ceiling.prom;

import java.util.List;

/**
 * A strict parser for the Prometheus text exposition format 0.0.4.
 *
 * <p>Strict means: everything the format allows is accepted (HELP/TYPE/comment lines in any
 * position the format allows, blanks and tabs between tokens, a trailing comma in label sets,
 * {@code +Inf}/{@code -Inf}/{@code NaN}, optional millisecond timestamps), and everything else is
 * an error with its line and column, never a silent skip. In particular: a second HELP or TYPE for
 * a family, a TYPE/HELP after the family's first sample, a family whose lines are not one group (a
 * sample of family A after family B began), a sample that does not fit its TYPE (e.g. {@code h}
 * inside histogram {@code h}, a {@code _bucket} without {@code le}), duplicate series, bad escapes,
 * unclosed braces or quotes, values that are not floats, timestamps that are not 64-bit integers,
 * carriage returns, and a body whose last line lacks its line feed (a truncated body).
 *
 * <p>Parsing continues after a bad line so that one exception reports every problem (up to {@value
 * #MAX_PROBLEMS}); lines that failed contribute nothing.
 *
 * <p>Thread-safe: stateless.
 */
public final class PrometheusText {
  /** How many problems one exception lists before summarising the rest as a count. */
  public static final int MAX_PROBLEMS = 10;

  private PrometheusText() {}

  /**
   * Parses a whole exposition.
   *
   * @param body the decoded body; an empty body is valid and has no families
   * @return the families in exposition order, each with its samples in exposition order
   * @throws MetricsException naming {@code line:column} and what was expected, for every problem
   */
  public static List<MetricFamily> parse(String body) throws MetricsException {
    return new TextParser(body).run();
  }

  /**
   * Parses a sample value as Go's {@code strconv.ParseFloat} (which Prometheus uses) would, minus
   * hexadecimal floats.
   *
   * @return the value, or {@code null} when the token is not a valid float
   */
  static Double parseFloat(String t) {
    return PromNumbers.parseFloat(t);
  }
}
