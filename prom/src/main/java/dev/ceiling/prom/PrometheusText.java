package dev.ceiling.prom;

import dev.ceiling.prom.LineCursor.Fail;
import dev.ceiling.prom.MetricsException.Problem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
    return new Parser(body).run();
  }

  /**
   * Parses a sample value as Go's {@code strconv.ParseFloat} (which Prometheus uses) would, minus
   * hexadecimal floats: decimal with optional exponent, {@code [+-]Inf}/{@code Infinity} and {@code
   * NaN} in any case. A decimal outside the double range is an error there, so it is here.
   *
   * @return the value, or {@code null} when the token is not a valid float
   */
  static Double parseFloat(String t) {
    int n = t.length();
    if (n == 0) {
      return null;
    }
    int i = 0;
    char sign = t.charAt(0);
    if (sign == '+' || sign == '-') {
      i++;
    }
    String rest = t.substring(i).toLowerCase(Locale.ROOT);
    if (rest.equals("inf") || rest.equals("infinity")) {
      return sign == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (rest.equals("nan")) {
      return i == 0 ? Double.NaN : null;
    }
    int digits = 0;
    while (i < n && isDigit(t.charAt(i))) {
      i++;
      digits++;
    }
    if (i < n && t.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(t.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return null;
    }
    if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
      i++;
      if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
        i++;
      }
      int expDigits = 0;
      while (i < n && isDigit(t.charAt(i))) {
        i++;
        expDigits++;
      }
      if (expDigits == 0) {
        return null;
      }
    }
    if (i != n) {
      return null;
    }
    double v = Double.parseDouble(t);
    return Double.isInfinite(v) ? null : v;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** One family being assembled. */
  private static final class Family {
    final String name;
    final int firstLine;
    int lastLine;
    String type; // null until TYPE (or until the first sample makes it untyped)
    int typeLine;
    String help;
    int helpLine;
    final List<Sample> samples = new ArrayList<>();
    int firstSampleLine;
    final Map<String, Integer> seriesLines = new HashMap<>();

    Family(String name, int line) {
      this.name = name;
      this.firstLine = line;
      this.lastLine = line;
    }

    String effectiveType() {
      return type == null ? "untyped" : type;
    }

    Set<String> sampleNames() {
      return switch (effectiveType()) {
        case "histogram" -> Set.of(name + "_bucket", name + "_count", name + "_sum");
        case "summary" -> Set.of(name, name + "_count", name + "_sum");
        default -> Set.of(name);
      };
    }

    String sampleNamesText() {
      return switch (effectiveType()) {
        case "histogram" -> name + "_bucket, " + name + "_count or " + name + "_sum";
        case "summary" -> name + ", " + name + "_count or " + name + "_sum";
        default -> name;
      };
    }

    MetricFamily build() {
      return new MetricFamily(name, effectiveType(), help, samples);
    }
  }

  private static final class Parser {
    private final String body;
    private final List<Problem> problems = new ArrayList<>();
    private final List<Family> done = new ArrayList<>();
    private final Map<String, Family> familiesByName = new HashMap<>();
    private final Map<String, Family> sampleOwners = new HashMap<>();
    private Family current;
    private int lineNo;

    Parser(String body) {
      this.body = body;
    }

    List<MetricFamily> run() throws MetricsException {
      int start = 0;
      int n = body.length();
      while (start < n) {
        lineNo++;
        int nl = body.indexOf('\n', start);
        int end = nl < 0 ? n : nl;
        LineCursor c = new LineCursor(body, start, end);
        try {
          line(c);
        } catch (Fail f) {
          problems.add(new Problem(lineNo, c.column(f.index), f.getMessage()));
        }
        if (nl < 0) {
          problems.add(
              new Problem(
                  lineNo,
                  c.column(end),
                  "expected a line feed at the end of the last line (is the body truncated?),"
                      + " got end of body"));
          break;
        }
        start = nl + 1;
      }
      if (!problems.isEmpty()) {
        throw MetricsException.ofProblems(problems, MAX_PROBLEMS);
      }
      finishCurrent();
      List<MetricFamily> out = new ArrayList<>(done.size());
      for (Family f : done) {
        out.add(f.build());
      }
      return out;
    }

    private void finishCurrent() {
      if (current != null) {
        done.add(current);
        current = null;
      }
    }

    private void line(LineCursor c) throws Fail {
      c.skipBlanks();
      if (c.atEnd()) {
        return;
      }
      if (c.peek() == '#') {
        comment(c);
      } else {
        sample(c);
      }
    }

    private void comment(LineCursor c) throws Fail {
      c.pos++;
      c.skipBlanks();
      String keyword = c.token();
      boolean help = keyword.equals("HELP");
      if (!help && !keyword.equals("TYPE")) {
        return; // a plain comment
      }
      if (!c.skipBlanks()) {
        throw c.expected("a blank and a metric name after " + keyword);
      }
      int nameIndex = c.pos;
      String name = c.metricName("a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) after " + keyword);
      if (!c.atEnd() && !LineCursor.isBlank(c.peek())) {
        throw c.expected("a blank after metric name '" + name + "'");
      }
      Family f = familyFor(name, keyword, nameIndex);
      if (help) {
        if (f.help != null) {
          throw new Fail(
              nameIndex, "second HELP line for '" + name + "' (first at line " + f.helpLine + ")");
        }
        c.skipBlanks();
        f.help = helpText(c, name);
        f.helpLine = lineNo;
      } else {
        if (f.type != null) {
          throw new Fail(
              nameIndex, "second TYPE line for '" + name + "' (first at line " + f.typeLine + ")");
        }
        c.skipBlanks();
        int typeIndex = c.pos;
        String type = c.token();
        if (!MetricFamily.TYPES.contains(type)) {
          throw new Fail(
              typeIndex,
              "expected a type (counter, gauge, histogram, summary, untyped) for '"
                  + name
                  + "', got "
                  + (type.isEmpty() ? "end of line" : "'" + type + "'"));
        }
        c.skipBlanks();
        if (!c.atEnd()) {
          throw c.expected("end of line after the type");
        }
        f.type = type;
        f.typeLine = lineNo;
      }
      f.lastLine = lineNo;
    }

    /** The family a HELP or TYPE line for {@code name} belongs to, starting it if new. */
    private Family familyFor(String name, String keyword, int nameIndex) throws Fail {
      if (current != null && current.name.equals(name)) {
        if (!current.samples.isEmpty()) {
          throw new Fail(
              nameIndex,
              keyword
                  + " for '"
                  + name
                  + "' must come before its first sample (line "
                  + current.firstSampleLine
                  + ")");
        }
        return current;
      }
      Family earlier = familiesByName.get(name);
      if (earlier != null) {
        throw new Fail(nameIndex, interrupted("family '" + name + "'", earlier));
      }
      Family owner = sampleOwners.get(name);
      if (owner != null) {
        throw new Fail(
            nameIndex,
            keyword
                + " for '"
                + name
                + "', which is a sample name of "
                + owner.effectiveType()
                + " '"
                + owner.name
                + "' at lines "
                + owner.firstLine
                + "-"
                + owner.lastLine
                + "; all lines of a family must be one group");
      }
      return start(name);
    }

    private Family start(String name) {
      finishCurrent();
      Family f = new Family(name, lineNo);
      familiesByName.put(name, f);
      current = f;
      return f;
    }

    private String interrupted(String what, Family earlier) {
      return what
          + " already appeared at lines "
          + earlier.firstLine
          + "-"
          + earlier.lastLine
          + "; all lines of a family must be one group";
    }

    private String helpText(LineCursor c, String name) throws Fail {
      StringBuilder b = new StringBuilder();
      while (!c.atEnd()) {
        char ch = c.peek();
        if (ch == '\\') {
          int escape = c.pos;
          c.pos++;
          if (c.atEnd()) {
            throw new Fail(
                escape,
                "expected an escape (\\\\ or \\n) in the HELP of '"
                    + name
                    + "', got '\\' at end of line");
          }
          char e = c.peek();
          if (e == '\\') {
            b.append('\\');
          } else if (e == 'n') {
            b.append('\n');
          } else {
            throw new Fail(
                escape,
                "invalid escape '\\"
                    + new String(Character.toChars(c.text.codePointAt(c.pos)))
                    + "' in the HELP of '"
                    + name
                    + "' (allowed: \\\\, \\n)");
          }
        } else if (ch == '\r') {
          throw c.expected("HELP text or end of line");
        } else {
          b.append(ch);
        }
        c.pos++;
      }
      return b.toString();
    }

    private void sample(LineCursor c) throws Fail {
      int nameIndex = c.pos;
      String name = c.metricName("a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) or '#'");
      Map<String, String> labels = new LinkedHashMap<>();
      Map<String, int[]> labelIndexes = new HashMap<>();
      c.skipBlanks();
      int labelsIndex = c.pos;
      if (!c.atEnd() && c.peek() == '{') {
        c.labels(labels, labelIndexes);
        c.skipBlanks();
      }
      int valueIndex = c.pos;
      String valueText = c.token();
      if (valueText.isEmpty()) {
        throw c.expected("a value after '" + name + "'");
      }
      Double value = parseFloat(valueText);
      if (value == null) {
        throw new Fail(
            valueIndex,
            "expected a float value (e.g. 1, -2.5e3, +Inf, -Inf, NaN) for '"
                + name
                + "', got '"
                + valueText
                + "'");
      }
      Long timestamp = null;
      c.skipBlanks();
      if (!c.atEnd()) {
        char first = c.peek();
        if (!isDigit(first) && first != '-' && first != '+') {
          throw c.expected("a timestamp (integer milliseconds) or end of line after the value");
        }
        int tsIndex = c.pos;
        String ts = c.token();
        timestamp = parseTimestamp(ts);
        if (timestamp == null) {
          throw new Fail(
              tsIndex,
              "expected a timestamp (integer milliseconds) or end of line after the value, got '"
                  + ts
                  + "'");
        }
        c.skipBlanks();
        if (!c.atEnd()) {
          throw c.expected("end of line after the timestamp");
        }
      }
      Family f = familyOfSample(name, nameIndex);
      checkShape(f, name, labels, labelIndexes, labelsIndex);
      Sample s = new Sample(name, labels, value, timestamp);
      String series = s.series();
      Integer firstLine = f.seriesLines.putIfAbsent(series, lineNo);
      if (firstLine != null) {
        throw new Fail(
            nameIndex, "duplicate series " + series + " (first at line " + firstLine + ")");
      }
      if (f.samples.isEmpty()) {
        f.firstSampleLine = lineNo;
      }
      f.samples.add(s);
      f.lastLine = lineNo;
      sampleOwners.putIfAbsent(name, f);
    }

    private Family familyOfSample(String name, int nameIndex) throws Fail {
      if (current != null && current.sampleNames().contains(name)) {
        return current;
      }
      if (current != null && current.name.equals(name)) {
        throw new Fail(
            nameIndex,
            "sample '"
                + name
                + "' does not fit "
                + current.effectiveType()
                + " '"
                + name
                + "' (expected "
                + current.sampleNamesText()
                + ")");
      }
      Family owner = sampleOwners.get(name);
      if (owner == null) {
        owner = declaredOwner(name);
      }
      if (owner != null) {
        throw new Fail(
            nameIndex,
            "sample '"
                + name
                + "' belongs to "
                + owner.effectiveType()
                + " '"
                + owner.name
                + "' at lines "
                + owner.firstLine
                + "-"
                + owner.lastLine
                + ", whose block has ended; all lines of a family must be one group");
      }
      Family earlier = familiesByName.get(name);
      if (earlier != null) {
        throw new Fail(
            nameIndex,
            "sample '"
                + name
                + "' does not fit "
                + earlier.effectiveType()
                + " '"
                + name
                + "' (expected "
                + earlier.sampleNamesText()
                + "), and "
                + interrupted("that family", earlier).substring("that family ".length()));
      }
      return start(name); // an untyped family: a sample without HELP or TYPE
    }

    /** An earlier histogram or summary (perhaps still without samples) that owns this name. */
    private Family declaredOwner(String name) {
      for (String suffix : new String[] {"_bucket", "_count", "_sum"}) {
        if (name.endsWith(suffix)) {
          Family f = familiesByName.get(name.substring(0, name.length() - suffix.length()));
          if (f != null && f.sampleNames().contains(name)) {
            return f;
          }
        }
      }
      return null;
    }

    /** Histogram and summary samples must carry exactly the labels their role requires. */
    private void checkShape(
        Family f,
        String name,
        Map<String, String> labels,
        Map<String, int[]> labelIndexes,
        int labelsIndex)
        throws Fail {
      String type = f.effectiveType();
      String special;
      boolean required;
      if (type.equals("histogram")) {
        special = "le";
        required = name.endsWith("_bucket");
      } else if (type.equals("summary")) {
        special = "quantile";
        required = name.equals(f.name);
      } else {
        return;
      }
      String v = labels.get(special);
      if (required) {
        if (v == null) {
          throw new Fail(
              labelsIndex,
              "expected label '"
                  + special
                  + "' on "
                  + type
                  + " sample '"
                  + name
                  + "', got "
                  + (labels.isEmpty() ? "no labels" : "only " + labels.keySet()));
        }
        if (parseFloat(v) == null) {
          throw new Fail(
              labelIndexes.get(special)[1],
              "expected a float in label '" + special + "' of '" + name + "', got '" + v + "'");
        }
      } else if (v != null) {
        throw new Fail(
            labelIndexes.get(special)[0],
            "label '"
                + special
                + "' is reserved for the "
                + type
                + "'s buckets/quantiles, found on '"
                + name
                + "'");
      }
    }

    private static Long parseTimestamp(String t) {
      int i = 0;
      if (t.startsWith("+") || t.startsWith("-")) {
        i = 1;
      }
      if (i == t.length()) {
        return null;
      }
      for (int k = i; k < t.length(); k++) {
        if (!isDigit(t.charAt(k))) {
          return null;
        }
      }
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        return null; // out of the int64 range
      }
    }
  }
}
