package dev.ceiling.verdict;

import java.util.Objects;

/**
 * One admission limit a profile declares, as the defaults round reads it: whose budget it is, how
 * many of the offer's messages it lets through over what sliding window. The rig's {@code
 * AdmissionLimit} is the profile's full declaration; this is the part the pure rules need.
 *
 * @param scope whose budget it is
 * @param limit how many the budget allows in one window, >= 1
 * @param windowS the sliding window, seconds, > 0 and finite
 * @param description the declaration in one line, for the words
 */
public record DeclaredBudget(Scope scope, long limit, double windowS, String description) {
  public DeclaredBudget {
    Objects.requireNonNull(scope, "scope must not be null");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }
    if (!(windowS > 0 && Double.isFinite(windowS))) {
      throw new IllegalArgumentException("windowS must be a finite number > 0, got " + windowS);
    }
    if (description == null || description.isBlank()) {
      throw new IllegalArgumentException("description must not be blank");
    }
  }

  /** Whose budget a limit is, as far as the crossover cares. */
  public enum Scope {
    /** Each signing key's: the offer's N keys share the offer's events. */
    SIGNING_KEY,
    /** Each source address's: the offer's M addresses share its messages. */
    SOURCE_ADDRESS,
    /**
     * Anything else that applies to the offer (a budget per connection, a count of connections):
     * its window still has to be covered, but the crossover in keys and addresses does not read it.
     */
    OTHER
  }

  /** The budget as a sustained rate: limit / window, per second. */
  public double perS() {
    return limit / windowS;
  }
}
