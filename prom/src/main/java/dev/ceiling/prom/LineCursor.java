package dev.ceiling.prom;

import java.util.Map;

/**
 * A cursor over one line of an exposition (or one selector), with the token readers both need.
 * Every failure names the index where it was detected; {@link #column(int)} turns it into a 1-based
 * code-point column.
 */
final class LineCursor {
  final String text;
  final int lineStart;
  final int end;
  int pos;

  LineCursor(String text, int lineStart, int end) {
    this.text = text;
    this.lineStart = lineStart;
    this.end = end;
    this.pos = lineStart;
  }

  /** A problem at {@code index}; carries no stack trace because it is routine control flow. */
  static final class Fail extends Exception {
    private static final long serialVersionUID = 1L;
    final int index;

    Fail(int index, String what) {
      super(what, null, false, false);
      this.index = index;
    }
  }

  int column(int index) {
    return 1 + text.codePointCount(lineStart, Math.min(index, end));
  }

  boolean atEnd() {
    return pos >= end;
  }

  char peek() {
    return text.charAt(pos);
  }

  static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  /** Skips blanks and tabs; returns whether there was at least one. */
  boolean skipBlanks() {
    int start = pos;
    while (pos < end && isBlank(text.charAt(pos))) {
      pos++;
    }
    return pos > start;
  }

  /** What is at {@code index}, for "got ..." in messages. */
  String describe(int index) {
    if (index >= end) {
      return "end of line";
    }
    int cp = text.codePointAt(index);
    if (cp == '\r') {
      return "carriage return (0.0.4 lines end with a bare line feed)";
    }
    if (Character.isISOControl(cp) || (Character.isWhitespace(cp) && cp != ' ' && cp != '\t')) {
      return String.format("U+%04X", cp);
    }
    if (cp == ' ') {
      return "blank";
    }
    if (cp == '\t') {
      return "tab";
    }
    return "'" + new String(Character.toChars(cp)) + "'";
  }

  Fail expected(String what) {
    return new Fail(pos, "expected " + what + ", got " + describe(pos));
  }

  String metricName(String what) throws Fail {
    int start = pos;
    if (atEnd() || !Names.isMetricNameStart(peek())) {
      throw expected(what);
    }
    pos++;
    while (pos < end && Names.isMetricNameChar(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  String labelName(String what) throws Fail {
    int start = pos;
    if (atEnd() || !Names.isLabelNameStart(peek())) {
      throw expected(what);
    }
    pos++;
    while (pos < end && Names.isLabelNameChar(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  /**
   * A run of characters up to a blank, a tab or a carriage return (may be empty). Stopping at '\r'
   * lets CRLF bodies get a message about the line ending rather than about a garbled token.
   */
  String token() {
    int start = pos;
    while (pos < end && !isBlank(text.charAt(pos)) && text.charAt(pos) != '\r') {
      pos++;
    }
    return text.substring(start, pos);
  }

  /**
   * Reads {@code {name="value",...}} starting at the '{'. Allows blanks between tokens and one
   * trailing comma, as the 0.0.4 grammar does. Records where each label's name and value start in
   * {@code labelIndexes} (may be null) so later checks can point at them.
   */
  void labels(Map<String, String> into, Map<String, int[]> labelIndexes) throws Fail {
    int open = pos;
    pos++; // '{'
    while (true) {
      skipBlanks();
      if (atEnd()) {
        throw new Fail(
            pos,
            "expected a label name or '}' to close the '{' at column "
                + column(open)
                + ", got end of line");
      }
      if (peek() == '}') {
        pos++;
        return;
      }
      int nameIndex = pos;
      String name = labelName("a label name ([a-zA-Z_][a-zA-Z0-9_]*) or '}'");
      if (into.containsKey(name)) {
        throw new Fail(nameIndex, "duplicate label name '" + name + "'");
      }
      skipBlanks();
      if (atEnd() || peek() != '=') {
        throw expected("'=' after label name '" + name + "'");
      }
      pos++;
      skipBlanks();
      if (atEnd() || peek() != '"') {
        throw expected("'\"' to open the value of label '" + name + "'");
      }
      int quote = pos;
      pos++;
      if (labelIndexes != null) {
        labelIndexes.put(name, new int[] {nameIndex, pos});
      }
      into.put(name, quotedValue(name, quote));
      skipBlanks();
      if (atEnd()) {
        throw new Fail(
            pos,
            "expected ',' or '}' after the value of label '"
                + name
                + "' (the '{' at column "
                + column(open)
                + " is never closed), got end of line");
      }
      char c = peek();
      if (c == ',') {
        pos++;
      } else if (c != '}') {
        throw expected("',' or '}' after the value of label '" + name + "'");
      }
    }
  }

  private String quotedValue(String name, int quote) throws Fail {
    StringBuilder value = null;
    int runStart = pos;
    while (true) {
      if (atEnd()) {
        throw new Fail(
            pos,
            "expected '\"' to close the value of label '"
                + name
                + "' opened at column "
                + column(quote)
                + ", got end of line");
      }
      char c = peek();
      if (c == '"') {
        String result =
            value == null
                ? text.substring(runStart, pos)
                : value.append(text, runStart, pos).toString();
        pos++;
        return result;
      }
      if (c == '\\') {
        if (value == null) {
          value = new StringBuilder();
        }
        value.append(text, runStart, pos);
        int escape = pos;
        pos++;
        if (atEnd()) {
          throw new Fail(
              escape,
              "expected an escape (\\\\, \\\", \\n) in the value of label '"
                  + name
                  + "', got '\\' at end of line");
        }
        char e = peek();
        switch (e) {
          case '\\' -> value.append('\\');
          case '"' -> value.append('"');
          case 'n' -> value.append('\n');
          default ->
              throw new Fail(
                  escape,
                  "invalid escape '\\"
                      + new String(Character.toChars(text.codePointAt(pos)))
                      + "' in the value of label '"
                      + name
                      + "' (allowed: \\\\, \\\", \\n)");
        }
        pos++;
        runStart = pos;
      } else {
        pos++;
      }
    }
  }

  /** The rest of a HELP line, unescaped ({@code \\\\} and {@code \\n} only). */
  String helpText(String name) throws Fail {
    StringBuilder b = new StringBuilder();
    while (!atEnd()) {
      char ch = peek();
      if (ch == '\\') {
        int escape = pos;
        pos++;
        if (atEnd()) {
          throw new Fail(
              escape,
              "expected an escape (\\\\ or \\n) in the HELP of '"
                  + name
                  + "', got '\\' at end of line");
        }
        char e = peek();
        if (e == '\\') {
          b.append('\\');
        } else if (e == 'n') {
          b.append('\n');
        } else {
          throw new Fail(
              escape,
              "invalid escape '\\"
                  + new String(Character.toChars(text.codePointAt(pos)))
                  + "' in the HELP of '"
                  + name
                  + "' (allowed: \\\\, \\n)");
        }
      } else if (ch == '\r') {
        throw expected("HELP text or end of line");
      } else {
        b.append(ch);
      }
      pos++;
    }
    return b.toString();
  }
}
