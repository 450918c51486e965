package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlReport.esc;

/**
 * {@code dossier.html}: the {@link Dossier}'s answers first, as one paragraph, then each round with
 * how it stands and a link to its own page. Self-contained and offline like every report page.
 */
public final class DossierHtml {
  /** The page's file name, beside {@code dossier.json}. */
  public static final String FILE = "dossier.html";

  private DossierHtml() {}

  public static String render(Dossier d) {
    StringBuilder h = HtmlReport.page("Ceiling dossier: " + d.profile());
    h.append("<h1>Ceiling: what limits '").append(esc(d.profile())).append("'</h1>\n");
    h.append("<p id=\"answers\">").append(esc(d.answers())).append("</p>\n");
    h.append("<h2>The rounds</h2>\n<ol>\n");
    for (Dossier.Entry e : d.rounds()) {
      h.append("<li><strong>").append(esc(e.round())).append("</strong>: ");
      h.append(esc(e.status().words())).append(". ").append(esc(e.answer()));
      if (e.page() != null) {
        h.append(" <a href=\"")
            .append(esc(e.page()))
            .append("\">")
            .append(esc(e.page()))
            .append("</a>");
      }
      for (String p : e.problems()) {
        h.append("<br><small>").append(esc(p)).append("</small>");
      }
      h.append("</li>\n");
    }
    h.append("</ol>\n<p><small>Whole run: ")
        .append(esc(d.outcome().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')))
        .append(". The plan every round followed is explain-plan.json.</small></p>\n");
    h.append("</body></html>\n");
    return h.toString();
  }
}
