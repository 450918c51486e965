package dev.ceiling.nostr;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.List;

/**
 * Builds signed NIP-01 events: computes the id from the canonical serialization and signs it with
 * BIP-340, using fresh auxiliary randomness for every signature.
 *
 * <p>Thread-safe: each thread draws aux randomness from its own {@link SecureRandom}, because the
 * platform default on Linux (NativePRNG) serializes every caller on one lock, which would cap a
 * generator that pre-signs on several threads.
 */
public final class EventSigner {
  private static final ThreadLocal<SecureRandom> AUX_RANDOM =
      ThreadLocal.withInitial(EventSigner::newRandom);

  private EventSigner() {}

  /**
   * A signed event.
   *
   * @param createdAt seconds since the Unix epoch, >= 0
   * @param kind NIP-01 kind in [0, 65535]
   * @param tags the tags, each a list of strings (copied)
   * @param content the content, any string
   * @throws IllegalArgumentException if an argument breaks an event rule (the message names it)
   */
  public static NostrEvent sign(
      Keys keys, long createdAt, int kind, List<List<String>> tags, String content) {
    String pubkey = keys.publicKeyHex();
    byte[] id = NostrEvent.computeIdBytes(pubkey, createdAt, kind, tags, content);
    byte[] aux = new byte[32];
    AUX_RANDOM.get().nextBytes(aux);
    byte[] sig = Schnorr.sign(id, keys.secretKeyUnsafe(), aux);
    return new NostrEvent(Hex.encode(id), pubkey, createdAt, kind, tags, content, Hex.encode(sig));
  }

  private static SecureRandom newRandom() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }
}
