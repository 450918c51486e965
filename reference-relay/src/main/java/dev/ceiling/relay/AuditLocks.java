package dev.ceiling.relay;

import java.util.ArrayList;
import java.util.List;

/**
 * Which lease and which hash chain an audit entry is written under, for a lock mode, a number of
 * workers and the served communities ({@link AuditLockMode} says why). Chain 0 is the audit log as
 * it always was: table {@code audit_log} under lease 1; chain {@code k > 0} is table {@code
 * audit_log_k} under lease {@code 100 + k}. Immutable.
 *
 * @param mode the lock mode
 * @param workers audit workers, >= 1
 * @param communities the served communities, in the relay's order
 */
record AuditLocks(AuditLockMode mode, int workers, List<String> communities) {

  /** One lease and the chain it guards. */
  record Chain(int lockId, String table) {}

  AuditLocks {
    communities = List.copyOf(communities);
  }

  /** The chain worker {@code worker} writes an entry of {@code community} to. */
  Chain chainFor(int worker, String community) {
    return switch (mode) {
      case GLOBAL -> chain(0);
      case NONE -> chain(worker);
      // An unknown community cannot reach the audit log (it is resolved before acceptance);
      // chain 0 keeps a stray entry written rather than lost.
      case PER_COMMUNITY -> chain(Math.max(0, communities.indexOf(community)));
    };
  }

  /** Every chain an entry can be written to: the tables and leases the schema must hold. */
  List<Chain> all() {
    int n =
        switch (mode) {
          case GLOBAL -> 1;
          case NONE -> workers;
          case PER_COMMUNITY -> communities.size();
        };
    List<Chain> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      out.add(chain(k));
    }
    return out;
  }

  static Chain chain(int k) {
    return k == 0
        ? new Chain(AuditDatabase.AUDIT_LOCK_ID, "audit_log")
        : new Chain(100 + k, "audit_log_" + k);
  }
}
