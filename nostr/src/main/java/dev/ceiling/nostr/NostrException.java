package dev.ceiling.nostr;

/**
 * A Nostr event, hex string or key that breaks a rule. The message names the field or input and the
 * rule it broke, e.g. {@code "field 'kind' must be an integer in [0, 65535], got -1"}.
 */
public final class NostrException extends Exception {
  private static final long serialVersionUID = 1L;

  public NostrException(String message) {
    super(message);
  }

  public NostrException(String message, Throwable cause) {
    super(message, cause);
  }
}
