package dev.ceiling.core.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The line a relay prints once it serves: a prefix, then {@code key=value} pairs separated by
 * spaces, e.g. {@code READY port=47100 exchange_cost_ms=0.412}. The reference relay prints one with
 * {@link #format(String)}; the rig and the bench read one with {@link #parse}. A third-party relay
 * may print its own (docs/RIG.md): a token without {@code =} is ignored, as it always was.
 *
 * <p>The shape stays text rather than JSON because relays other than ours print it and scripts wait
 * for {@code READY port=}. Immutable.
 *
 * @param fields key to value in the order printed; keys non-empty, and neither keys nor values hold
 *     whitespace (a value with a space would read back as two tokens)
 */
public record ReadyLine(Map<String, String> fields) {
  /** The reference relay's prefix, and the one profiles use by default. */
  public static final String PREFIX = "READY ";

  /** What a relay prints where it has no value (an external database has no H2 port). */
  public static final String NOT_APPLICABLE = "NA";

  public ReadyLine {
    Objects.requireNonNull(fields, "fields must not be null");
    Checks checks = new Checks();
    fields.forEach(
        (k, v) ->
            checks
                .require(
                    k != null && !k.isEmpty() && !k.contains("=") && !hasSpace(k),
                    "key must be non-empty without '=' or whitespace, got '" + k + "'")
                .require(
                    v != null && !hasSpace(v),
                    "value of " + k + " must be non-null without whitespace, got '" + v + "'"));
    checks.orThrow();
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** The line as printed: {@code prefix} then {@code key=value} pairs, space separated. */
  public String format(String prefix) {
    StringBuilder b = new StringBuilder(prefix);
    String sep = "";
    for (Map.Entry<String, String> e : fields.entrySet()) {
      b.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = " ";
    }
    return b.toString();
  }

  /**
   * The pairs of {@code line} when it starts with {@code prefix}; empty otherwise. Tokens without a
   * key before {@code =} are skipped; a repeated key keeps its last value.
   */
  public static Optional<ReadyLine> parse(String prefix, String line) {
    if (line == null || !line.startsWith(prefix)) {
      return Optional.empty();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String tok : line.substring(prefix.length()).trim().split("\\s+", -1)) {
      int eq = tok.indexOf('=');
      if (eq > 0) {
        out.put(tok.substring(0, eq), tok.substring(eq + 1));
      }
    }
    return Optional.of(new ReadyLine(out));
  }

  /** The value of {@code key}, or empty when the line lacks it or says {@link #NOT_APPLICABLE}. */
  public Optional<String> value(String key) {
    String v = fields.get(key);
    return v == null || NOT_APPLICABLE.equals(v) ? Optional.empty() : Optional.of(v);
  }

  /**
   * The value of {@code key} as a finite number, or empty when absent, {@link #NOT_APPLICABLE} or
   * not a number.
   */
  public OptionalDouble number(String key) {
    Optional<String> v = value(key);
    if (v.isEmpty()) {
      return OptionalDouble.empty();
    }
    try {
      double d = Double.parseDouble(v.get());
      return Double.isFinite(d) ? OptionalDouble.of(d) : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      return OptionalDouble.empty();
    }
  }

  private static boolean hasSpace(String s) {
    return s.chars().anyMatch(Character::isWhitespace);
  }
}
