package dev.ceiling.generator;

/**
 * One share of a schedule run from several machines ("i/N", after k6's execution segments): this
 * process sends only the slots {@code k} with {@code k mod N == i}. Every slot belongs to exactly
 * one segment, so N processes started with the same start instant and segments 0/N .. (N-1)/N offer
 * the whole schedule between them.
 *
 * @param index this segment, {@code 0 <= index < count}
 * @param count how many segments the schedule is split into, {@code >= 1}
 */
public record Segment(int index, int count) {

  /** The whole schedule. */
  public static final Segment WHOLE = new Segment(0, 1);

  public Segment {
    if (count < 1) {
      throw new IllegalArgumentException("segment count must be >= 1, got " + count);
    }
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "segment index must be in [0, " + count + "), got " + index);
    }
  }

  /**
   * Parses "i/N".
   *
   * @throws IllegalArgumentException naming the expected shape when the text is not "i/N" with
   *     {@code 0 <= i < N}
   */
  public static Segment parse(String text) {
    String t = text == null ? "" : text.trim();
    int slash = t.indexOf('/');
    if (slash <= 0 || slash == t.length() - 1) {
      throw new IllegalArgumentException(
          "segment must look like i/N (e.g. 0/2), got '" + text + "'");
    }
    try {
      return new Segment(
          Integer.parseInt(t.substring(0, slash)), Integer.parseInt(t.substring(slash + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "segment must look like i/N (e.g. 0/2), got '" + text + "'", e);
    }
  }

  /** True when global slot {@code k} belongs to this segment. */
  public boolean owns(long k) {
    return Math.floorMod(k, (long) count) == index;
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }
}
