package dev.ceiling.core.model;

/**
 * Which cell of the plan this is: the arm, the offered rate, the repeat and its place in the
 * half-run's execution order. The verdict checks the keys of a half against its identity's plan.
 *
 * @param arm the arm's name as the profile gives it (e.g. "on", "off")
 * @param offeredPerS the aggregate offered rate, events/s, > 0
 * @param repeat 0-based repeat index at this rate
 * @param sequence 0-based position of this cell in its half-run's execution order
 * @param twoCommunity true when the rate was split across two communities (report-only)
 */
public record CellKey(
    String arm, double offeredPerS, int repeat, int sequence, boolean twoCommunity) {
  public CellKey {
    new Checks()
        .notBlank("arm", arm)
        .positiveFinite("offered_per_s", offeredPerS)
        .nonNegative("repeat", repeat)
        .nonNegative("sequence", sequence)
        .orThrow();
  }
}
