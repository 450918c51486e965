package dev.ceiling.cli.command;

import dev.ceiling.core.model.Checks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --expect-round-trips} as given: one count ({@code 6}) for a sweep of one link, or one per
 * link ({@code a=2,b=3}) for a sweep per link. Parses and names what is wrong; the checks of which
 * links exist are the command's.
 *
 * @param single the one count, or null
 * @param byLink the counts by link, in the order given; empty for none or a single count
 * @param problems what is wrong with the text, each naming the option
 */
record DeclaredCounts(Double single, Map<String, Double> byLink, List<String> problems) {
  static final String OPTION = "--expect-round-trips";

  /** The largest count a declaration may name: larger is a typo. */
  static final double MAX = 1_000_000;

  static DeclaredCounts parse(String text) {
    if (text == null) {
      return new DeclaredCounts(null, Map.of(), List.of());
    }
    Checks problems = new Checks();
    if (!text.contains("=")) {
      Double k = count(text, OPTION, problems);
      return new DeclaredCounts(k, Map.of(), problems.problems());
    }
    Map<String, Double> byLink = new LinkedHashMap<>();
    for (String part : text.split(",", -1)) {
      int eq = part.indexOf('=');
      String link = eq < 0 ? "" : part.substring(0, eq).trim();
      if (link.isEmpty()) {
        problems.add(OPTION + ": expected NAME=K for each link, e.g. a=2,b=3, got '" + part + "'");
      } else if (byLink.containsKey(link)) {
        problems.add(OPTION + ": link '" + link + "' is given twice");
      } else {
        Double k = count(part.substring(eq + 1), OPTION + " " + link, problems);
        if (k != null) {
          byLink.put(link, k);
        }
      }
    }
    return new DeclaredCounts(null, byLink, problems.problems());
  }

  private static Double count(String text, String what, Checks problems) {
    try {
      double k = Double.parseDouble(text.trim());
      if (k >= 0 && k <= MAX) {
        return k;
      }
    } catch (NumberFormatException e) {
      // Named below, like a number out of range.
    }
    problems.add(
        what + " must be a count of round trips in [0, " + (long) MAX + "], got '" + text + "'");
    return null;
  }

  /**
   * Adds what is wrong with these counts for a sweep of {@code swept} on a profile declaring {@code
   * declared} to {@code out}: the text's problems, a single count for several links, or a link that
   * is not swept.
   */
  OptionChecks check(OptionChecks out, List<String> swept, List<String> declared) {
    problems.forEach(out::add);
    if (single != null && swept.size() > 1) {
      out.add(
          OPTION
              + ": links "
              + swept
              + " are each swept; declare a count per link, e.g. "
              + swept.get(0)
              + "=2");
    }
    for (String link : byLink.keySet()) {
      if (!declared.contains(link)) {
        out.add(OPTION + ": link '" + link + "' is not a link of the profile: " + declared);
      } else if (!swept.contains(link)) {
        out.add(OPTION + ": link '" + link + "' is not swept (--link " + swept.get(0) + ")");
      }
    }
    return out;
  }

  /** The one count a sweep of {@code link} declares: the single one, or the link's. */
  Double forLink(String link) {
    return single != null ? single : byLink.get(link);
  }
}
