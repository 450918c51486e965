package dev.ceiling.relay;

import java.util.List;

/** Bad reference-relay configuration; carries every problem found, not just the first. */
public final class ReferenceRelayConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // List.copyOf is serializable for String elements; never serialized
  private final List<String> problems;

  public ReferenceRelayConfigException(List<String> problems) {
    super("invalid reference relay configuration: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Every problem, one sentence each (rule + value). */
  public List<String> problems() {
    return problems;
  }
}
