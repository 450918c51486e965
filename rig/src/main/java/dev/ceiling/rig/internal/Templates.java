package dev.ceiling.rig.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${name}} placeholders in profile strings. Expansion is single-pass: a value that itself
 * contains {@code ${...}} is not expanded again, so a data directory named {@code ${x}} cannot
 * inject a second substitution.
 */
public final class Templates {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.-]*)}");

  private Templates() {}

  /** The placeholder names used in {@code text}, in order of first use. */
  public static Set<String> names(String text) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /**
   * Replaces every placeholder.
   *
   * @throws IllegalArgumentException naming the first unknown placeholder and the known ones
   */
  public static String expand(String text, Map<String, String> vars) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String value = vars.get(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException(
            "unknown placeholder ${"
                + m.group(1)
                + "} in '"
                + text
                + "'; known: "
                + new java.util.TreeSet<>(vars.keySet()));
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** Expands every element. */
  public static List<String> expandAll(List<String> texts, Map<String, String> vars) {
    List<String> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(expand(t, vars));
    }
    return out;
  }
}
