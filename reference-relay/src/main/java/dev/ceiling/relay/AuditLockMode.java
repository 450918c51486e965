package dev.ceiling.relay;

/**
 * Which lock the audit workers contend for. Every mode runs the same statements (a lease is taken
 * and given back around each entry's write), so the modes differ only in who shares a lease and a
 * hash chain:
 *
 * <ul>
 *   <li>{@link #NONE}: each worker has a lease and a chain of its own, so no two workers ever wait
 *       for each other; worker 0's are the audit log's first chain ({@code audit_log}, lease 1),
 *       which is why one worker without a lock runs exactly the statements it always ran;
 *   <li>{@link #GLOBAL}: one lease and one chain for every entry;
 *   <li>{@link #PER_COMMUNITY}: a lease and a chain per community.
 * </ul>
 */
public enum AuditLockMode {
  NONE("none"),
  GLOBAL("global"),
  PER_COMMUNITY("per-community");

  private final String flagValue;

  AuditLockMode(String flagValue) {
    this.flagValue = flagValue;
  }

  /** The command-line spelling. */
  public String flagValue() {
    return flagValue;
  }

  /** The mode spelled {@code s} on the command line, or null when there is none. */
  static AuditLockMode fromFlag(String s) {
    for (AuditLockMode m : values()) {
      if (m.flagValue.equals(s)) {
        return m;
      }
    }
    return null;
  }
}
