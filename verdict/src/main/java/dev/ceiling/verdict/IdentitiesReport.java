package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The defaults round's answer: at the relay's stock limiter settings, which binds at each number of
 * identities N, the limiter or the relay's own ceiling, and where it changes.
 *
 * @param offeredPerS the one offered rate, events/s
 * @param sourceAddresses M, the source addresses the connections came from (null: the OS chose, one
 *     address on loopback)
 * @param rows one per N, ascending
 * @param firstFreeIdentities the smallest tried N from which on the limiter binds at no larger
 *     tried N, or null when it binds at the largest
 * @param budgetPerIdentityPerS each identity's budget from the profile's limiter settings
 *     (limiter_events_per_sec), or null when the profile names none
 * @param predictedCeilingPerS the relay's predicted ceiling of its own (all workers), or null
 * @param predictedCrossover predicted ceiling / budget: the N from which the limiter should stop
 *     binding, or null without both figures
 * @param words the answer in a sentence or two, with its figures
 */
public record IdentitiesReport(
    double offeredPerS,
    Integer sourceAddresses,
    List<IdentitiesRow> rows,
    Integer firstFreeIdentities,
    Double budgetPerIdentityPerS,
    Double predictedCeilingPerS,
    Double predictedCrossover,
    String words) {
  public IdentitiesReport {
    rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
    if (words == null || words.isBlank()) {
      throw new IllegalArgumentException("words must not be blank");
    }
  }

  /** The row of {@code n} identities, or null. */
  public IdentitiesRow row(int n) {
    return rows.stream().filter(r -> r.identities() == n).findFirst().orElse(null);
  }
}
