package dev.ceiling.cli.report;

import com.google.common.escape.Escaper;
import com.google.common.html.HtmlEscapers;
import dev.ceiling.verdict.RegressionResult;
import java.util.Locale;

/** {@code ceiling compare --html}: the answer first, then the figures, then the method. */
public final class ComparisonHtml {
  private static final Escaper ESC = HtmlEscapers.htmlEscaper();

  private ComparisonHtml() {}

  /** A self-contained page; narrow screens wrap rather than scroll. */
  public static String render(Comparison c) {
    RegressionResult r = c.result();
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>Ceiling compare</title><style>")
        .append("body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}")
        .append("p.answer{font-size:1.15rem;overflow-wrap:anywhere}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;")
        .append("text-align:left;overflow-wrap:anywhere}</style></head><body>\n")
        .append("<h1>Ceiling compare</h1>\n<p class=\"answer\">")
        .append(ESC.escape(c.answer()))
        .append("</p>\n<p>")
        .append(ESC.escape(c.changesLine()))
        .append("</p>\n<table>\n<tr><th></th><th>baseline</th><th>candidate</th></tr>\n");
    row(b, "file", c.baseline(), c.candidate());
    row(b, "cells used", Integer.toString(r.baselineN()), Integer.toString(r.candidateN()));
    row(b, "worker rate, events/s", num(r.baselineMean()), num(r.candidateMean()));
    b.append("</table>\n<table>\n");
    row(b, "margin", c.margin() + " (" + num(r.margin()) + " events/s)");
    row(b, "change, candidate - baseline", num(r.difference()));
    row(b, "one-sided lower bound at " + num(r.level()), num(r.lowerBound()));
    row(b, "p-value", r.pValue() == null ? "n/a" : String.format(Locale.ROOT, "%.3g", r.pValue()));
    row(b, "non-inferior", Boolean.toString(r.nonInferior()));
    b.append("</table>\n<details><summary>Method</summary><p>")
        .append(ESC.escape(c.methodLine()))
        .append("</p></details>\n</body></html>\n");
    return b.toString();
  }

  private static void row(StringBuilder b, String... cells) {
    b.append("<tr><th>").append(ESC.escape(cells[0])).append("</th>");
    for (int i = 1; i < cells.length; i++) {
      b.append("<td>").append(ESC.escape(cells[i])).append("</td>");
    }
    b.append("</tr>\n");
  }

  private static String num(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.4g", v);
  }
}
