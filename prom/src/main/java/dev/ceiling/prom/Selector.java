package dev.ceiling.prom;

import dev.ceiling.prom.LineCursor.Fail;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Picks series by sample name plus equality matchers on labels, like the PromQL selector {@code
 * name{reason="quota"}}: a series matches when its name is {@code name} and every matcher holds;
 * labels the selector does not mention may have any value (subset match). As in PromQL, a matcher
 * with an empty value also matches a series that lacks the label.
 *
 * @param name the sample name, including any {@code _count}/{@code _sum}/{@code _bucket} suffix
 * @param matchers label name to required value; stored sorted and immutable; may be empty
 */
public record Selector(String name, Map<String, String> matchers) {

  public Selector {
    if (!Names.isMetricName(name)) {
      throw new IllegalArgumentException(
          "name must match [a-zA-Z_:][a-zA-Z0-9_:]*, got " + Names.quote(name));
    }
    Objects.requireNonNull(matchers, "matchers must not be null (use an empty map)");
    matchers = Sample.sortedCopy("matchers", matchers);
  }

  /** A selector for every series named {@code name}. */
  public static Selector of(String name) {
    return new Selector(name, Map.of());
  }

  /**
   * Parses {@code name} or {@code name{a="b",c="d"}} (label values escaped as in the exposition
   * format: {@code \\}, {@code \"}, {@code \n}); blanks around tokens are allowed.
   *
   * @throws MetricsException naming the selector, the column and what was expected there
   */
  public static Selector parse(String text) throws MetricsException {
    Objects.requireNonNull(text, "selector text must not be null");
    LineCursor c = new LineCursor(text, 0, text.length());
    try {
      c.skipBlanks();
      String name = c.metricName("a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)");
      c.skipBlanks();
      Map<String, String> matchers = new LinkedHashMap<>();
      if (!c.atEnd() && c.peek() == '{') {
        c.labels(matchers, null);
        c.skipBlanks();
      }
      if (!c.atEnd()) {
        throw c.expected("'{' or end of selector");
      }
      return new Selector(name, matchers);
    } catch (Fail f) {
      int column = c.column(f.index);
      throw new MetricsException(
          1,
          column,
          "selector '"
              + text
              + "': column "
              + column
              + ": "
              + f.getMessage().replace("end of line", "end of selector"));
    }
  }

  /** Whether {@code sample} is one of the series this selector picks. */
  public boolean matches(Sample sample) {
    if (!name.equals(sample.name())) {
      return false;
    }
    for (Map.Entry<String, String> m : matchers.entrySet()) {
      if (!m.getValue().equals(sample.labels().getOrDefault(m.getKey(), ""))) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code name} or {@code name{a="b",c="d"}}; {@link #parse} reads it back to an equal selector.
   */
  @Override
  public String toString() {
    return Names.series(name, matchers);
  }
}
