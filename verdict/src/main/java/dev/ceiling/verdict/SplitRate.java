package dev.ceiling.verdict;

/**
 * One rate of the split design.
 *
 * @param offeredPerS the total offered rate, the same in both arms, events/s
 * @param pairs (rate, repeat) pairs with both cells measured
 * @param maskedPairs pairs excluded as MASKED_BY_WORKER
 * @param oneAcceptedPerS mean accepted/s of the "one" arm's cells that nothing but masking
 *     excluded, or null when none
 * @param splitAcceptedPerS the same for the "split" arm
 * @param onePoolBusy mean pool busy fraction of the "one" arm's measured cells, or null when unread
 * @param splitPoolBusy mean pool busy fraction of the "split" arm's measured cells, or null
 * @param masked true when every measured pair at this rate was masked: the rate cannot speak about
 *     the lock
 * @param reading the two predeclared questions' answer at this rate (Holm across the rates that are
 *     not masked), or null when the rate is masked
 */
public record SplitRate(
    double offeredPerS,
    int pairs,
    int maskedPairs,
    Double oneAcceptedPerS,
    Double splitAcceptedPerS,
    Double onePoolBusy,
    Double splitPoolBusy,
    boolean masked,
    RateReading reading) {
  public SplitRate {
    if (masked == (reading != null)) {
      throw new IllegalArgumentException(
          "a masked rate has no reading and every other rate has one, at " + offeredPerS + "/s");
    }
  }
}
