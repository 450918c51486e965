package dev.ceiling.prom;

import static dev.ceiling.prom.PromNumbers.isDigit;
import static dev.ceiling.prom.PromNumbers.parseFloat;
import static dev.ceiling.prom.PromNumbers.parseTimestamp;

import dev.ceiling.prom.LineCursor.Fail;
import dev.ceiling.prom.MetricsException.Problem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One parse of one exposition body (the rules are {@link PrometheusText}'s). Not thread-safe: a new
 * instance per body.
 */
final class TextParser {
  private final String body;
  private final List<Problem> problems = new ArrayList<>();
  private final List<FamilyDraft> done = new ArrayList<>();
  private final Map<String, FamilyDraft> familiesByName = new HashMap<>();
  private final Map<String, FamilyDraft> sampleOwners = new HashMap<>();
  private FamilyDraft current;
  private int lineNo;

  TextParser(String body) {
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
      throw MetricsException.ofProblems(problems, PrometheusText.MAX_PROBLEMS);
    }
    finishCurrent();
    List<MetricFamily> out = new ArrayList<>(done.size());
    for (FamilyDraft f : done) {
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
    FamilyDraft f = familyFor(name, keyword, nameIndex);
    if (help) {
      if (f.help != null) {
        throw new Fail(
            nameIndex, "second HELP line for '" + name + "' (first at line " + f.helpLine + ")");
      }
      c.skipBlanks();
      f.help = c.helpText(name);
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
  private FamilyDraft familyFor(String name, String keyword, int nameIndex) throws Fail {
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
    FamilyDraft earlier = familiesByName.get(name);
    if (earlier != null) {
      throw new Fail(nameIndex, interrupted("family '" + name + "'", earlier));
    }
    FamilyDraft owner = sampleOwners.get(name);
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

  private FamilyDraft start(String name) {
    finishCurrent();
    FamilyDraft f = new FamilyDraft(name, lineNo);
    familiesByName.put(name, f);
    current = f;
    return f;
  }

  private String interrupted(String what, FamilyDraft earlier) {
    return what
        + " already appeared at lines "
        + earlier.firstLine
        + "-"
        + earlier.lastLine
        + "; all lines of a family must be one group";
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
    FamilyDraft f = familyOfSample(name, nameIndex);
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

  private FamilyDraft familyOfSample(String name, int nameIndex) throws Fail {
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
    FamilyDraft owner = sampleOwners.get(name);
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
    FamilyDraft earlier = familiesByName.get(name);
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
  private FamilyDraft declaredOwner(String name) {
    for (String suffix : new String[] {"_bucket", "_count", "_sum"}) {
      if (name.endsWith(suffix)) {
        FamilyDraft f = familiesByName.get(name.substring(0, name.length() - suffix.length()));
        if (f != null && f.sampleNames().contains(name)) {
          return f;
        }
      }
    }
    return null;
  }

  /** Histogram and summary samples must carry exactly the labels their role requires. */
  private void checkShape(
      FamilyDraft f,
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
}
