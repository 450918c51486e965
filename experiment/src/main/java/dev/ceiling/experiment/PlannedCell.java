package dev.ceiling.experiment;

/**
 * One cell the sweep will measure.
 *
 * @param sequence 0-based position in execution order; the journal's resume key
 * @param offeredPerS aggregate offered rate, events/s
 * @param repeat 0-based repeat index at this rate
 * @param twoCommunity true when the rate is split evenly across two communities (report-only)
 */
record PlannedCell(int sequence, double offeredPerS, int repeat, boolean twoCommunity) {
  public PlannedCell {
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must be >= 0, got " + sequence);
    }
    if (!(offeredPerS > 0) || Double.isInfinite(offeredPerS)) {
      throw new IllegalArgumentException(
          "offered_per_s must be finite and > 0, got " + offeredPerS);
    }
    if (repeat < 0) {
      throw new IllegalArgumentException("repeat must be >= 0, got " + repeat);
    }
  }
}
