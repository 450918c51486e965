package dev.ceiling.nostr;

/**
 * Checks a NIP-01 event the way a relay must: the id is the SHA-256 of the canonical serialization,
 * and the signature is a valid BIP-340 signature of that id by the pubkey.
 *
 * <p>Thread-safe: stateless.
 */
public final class EventVerifier {
  private EventVerifier() {}

  /** True if the id matches the event's content and the signature verifies. Never throws. */
  public static boolean verify(NostrEvent e) {
    if (e == null) {
      return false;
    }
    byte[] id =
        NostrEvent.computeIdBytes(e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content());
    if (!Hex.encode(id).equals(e.id())) {
      return false;
    }
    try {
      return Schnorr.verify(id, Hex.decode(e.pubkey()), Hex.decode(e.sig()));
    } catch (NostrException impossible) {
      // The record's constructor already checked pubkey and sig are lowercase hex.
      return false;
    }
  }
}
