package dev.ceiling.relay;

/**
 * One accepted event waiting for its audit row.
 *
 * @param community community (host name) that accepted it
 * @param eventId 64 hex chars
 * @param pubkey 64 hex chars
 * @param kind event kind
 * @param createdAt event created_at, unix seconds
 */
public record AuditEntry(
    String community, String eventId, String pubkey, int kind, long createdAt) {
  public AuditEntry {
    if (community == null || community.isEmpty()) {
      throw new IllegalArgumentException("community must be non-empty, got " + community);
    }
    if (eventId == null || eventId.length() != 64) {
      throw new IllegalArgumentException("eventId must be 64 hex chars, got " + eventId);
    }
    if (pubkey == null || pubkey.length() != 64) {
      throw new IllegalArgumentException("pubkey must be 64 hex chars, got " + pubkey);
    }
  }
}
