package dev.ceiling.rig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One admission limit a relay applies at its stock settings, as its profile declares it ({@code
 * admission_limits}): what is counted, per what, how many over what sliding window, for which event
 * kinds, and how a refusal shows to the client. Data for the defaults round, which must cover the
 * longest window with its cells; nothing else reads it.
 *
 * @param per what the budget belongs to
 * @param counts what each unit of the budget is
 * @param limit how many are allowed in one window, >= 1
 * @param window the sliding window, > 0
 * @param kinds the event kinds the limit applies to, each a closed range; empty means every kind
 *     (and is the only choice unless {@code counts} is {@link Counted#EVENTS})
 * @param refusal what the client sees when the limit refuses
 */
public record AdmissionLimit(
    Per per, Counted counts, long limit, Duration window, List<KindRange> kinds, Refusal refusal) {

  public AdmissionLimit {
    Objects.requireNonNull(per, "per must not be null");
    Objects.requireNonNull(counts, "counts must not be null");
    Objects.requireNonNull(window, "window must not be null");
    Objects.requireNonNull(refusal, "refusal must not be null");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be > 0, got " + window);
    }
    kinds = List.copyOf(kinds);
    if (!kinds.isEmpty() && counts != Counted.EVENTS) {
      throw new IllegalArgumentException("kinds apply to counted events only, got " + counts.key());
    }
  }

  /** What a budget belongs to. */
  public enum Per {
    SIGNING_KEY,
    SOURCE_ADDRESS,
    CONNECTION;

    /** The profile's spelling, e.g. {@code signing_key}. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Per> fromKey(String key) {
      for (Per p : values()) {
        if (p.key().equals(key)) {
          return Optional.of(p);
        }
      }
      return Optional.empty();
    }
  }

  /** What one unit of a budget is. */
  public enum Counted {
    EVENTS,
    MESSAGES,
    CONNECTIONS;

    /** The profile's spelling, e.g. {@code events}. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Counted> fromKey(String key) {
      for (Counted c : values()) {
        if (c.key().equals(key)) {
          return Optional.of(c);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * Event kinds {@code first} to {@code last}, both included.
   *
   * @param first the lowest kind, in [0, 65535]
   * @param last the highest kind, in [first, 65535]
   */
  public record KindRange(int first, int last) {
    public KindRange {
      if (first < 0 || last > 65535 || first > last) {
        throw new IllegalArgumentException(
            "a kind range must lie in [0, 65535] with first <= last, got ["
                + first
                + ", "
                + last
                + "]");
      }
    }

    String describe() {
      return first == last ? Integer.toString(first) : first + "-" + last;
    }
  }

  /** How a refusal shows to the client. */
  public enum Answer {
    /** OK false, its message starting with the prefix. */
    OK_FALSE,
    /** A NOTICE starting with the prefix, and the message dropped. */
    NOTICE,
    /** The connection closed without a word. */
    CONNECTION_CLOSED;

    /** The profile's spelling, e.g. {@code ok_false}. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** True when the client is told in words, so the refusal has a message prefix. */
    public boolean hasMessage() {
      return this != CONNECTION_CLOSED;
    }

    static Optional<Answer> fromKey(String key) {
      for (Answer a : values()) {
        if (a.key().equals(key)) {
          return Optional.of(a);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * What a refusal looks like.
   *
   * @param answer how it shows
   * @param prefix the start of its message, non-blank when {@link Answer#hasMessage()}, else null
   */
  public record Refusal(Answer answer, String prefix) {
    public Refusal {
      Objects.requireNonNull(answer, "answer must not be null");
      if (answer.hasMessage() == (prefix == null || prefix.isBlank())) {
        throw new IllegalArgumentException(
            answer.hasMessage()
                ? "a refusal by " + answer.key() + " needs the prefix of its message"
                : "a refusal by "
                    + answer.key()
                    + " has no message, so no prefix, got \""
                    + prefix
                    + "\"");
      }
    }

    String describe() {
      return switch (answer) {
        case OK_FALSE -> "OK false \"" + prefix + "...\"";
        case NOTICE -> "NOTICE \"" + prefix + "...\"";
        case CONNECTION_CLOSED -> "the connection closed";
      };
    }
  }

  /**
   * One line, e.g. {@code 12 events per signing key over 60 s (kinds 1, 2, 4, 42); refused by OK
   * false "rate-limited:..."}.
   */
  public String describe() {
    List<String> k = new ArrayList<>();
    kinds.forEach(r -> k.add(r.describe()));
    String seconds =
        window.toMillis() % 1000 == 0
            ? Long.toString(window.toSeconds())
            : Double.toString(window.toMillis() / 1000.0);
    return limit
        + " "
        + counts.key()
        + " per "
        + per.key().replace('_', ' ')
        + " over "
        + seconds
        + " s"
        + (k.isEmpty() ? "" : " (kinds " + String.join(", ", k) + ")")
        + "; refused by "
        + refusal.describe();
  }
}
