package dev.ceiling.prom;

import java.util.Map;

/** Name grammar and exposition-syntax rendering shared by the parser, samples and selectors. */
final class Names {
  private Names() {}

  static boolean isMetricName(String s) {
    if (s == null || s.isEmpty() || !isMetricNameStart(s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      if (!isMetricNameChar(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static boolean isLabelName(String s) {
    if (s == null || s.isEmpty() || !isLabelNameStart(s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      if (!isLabelNameChar(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static boolean isMetricNameStart(char c) {
    return isLabelNameStart(c) || c == ':';
  }

  static boolean isMetricNameChar(char c) {
    return isLabelNameChar(c) || c == ':';
  }

  static boolean isLabelNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  static boolean isLabelNameChar(char c) {
    return isLabelNameStart(c) || (c >= '0' && c <= '9');
  }

  /** {@code name{a="x",b="y"}} with label values escaped as the format requires. */
  static String series(String name, Map<String, String> labels) {
    if (labels.isEmpty()) {
      return name;
    }
    StringBuilder b = new StringBuilder(name).append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (!first) {
        b.append(',');
      }
      first = false;
      b.append(e.getKey()).append("=\"");
      escapeLabelValue(b, e.getValue());
      b.append('"');
    }
    return b.append('}').toString();
  }

  static void escapeLabelValue(StringBuilder b, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '"' -> b.append("\\\"");
        case '\n' -> b.append("\\n");
        default -> b.append(c);
      }
    }
  }

  static String quote(String s) {
    return s == null ? "null" : "'" + s + "'";
  }
}
