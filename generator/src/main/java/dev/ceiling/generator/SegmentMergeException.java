package dev.ceiling.generator;

import java.util.List;

/** Segment reports that cannot be merged; the message lists every problem found, not the first. */
public final class SegmentMergeException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public SegmentMergeException(List<String> problems) {
    super("cannot merge: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Every problem, one per entry. */
  public List<String> problems() {
    return problems;
  }
}
