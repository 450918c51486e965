package dev.ceiling.verdict;

import java.util.List;

/**
 * Two half-runs cannot be combined into one experiment. The message lists every mismatch, one per
 * line, each naming the field and both values.
 */
public final class CombineException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<String> mismatches;

  public CombineException(List<String> mismatches) {
    super(
        "cannot combine these half-runs ("
            + mismatches.size()
            + (mismatches.size() == 1 ? " problem" : " problems")
            + "):\n  "
            + String.join("\n  ", mismatches));
    this.mismatches = List.copyOf(mismatches);
  }

  /** Every mismatch, one line each, in field order. */
  public List<String> mismatches() {
    return mismatches;
  }
}
