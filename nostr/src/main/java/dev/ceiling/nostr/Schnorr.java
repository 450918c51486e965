package dev.ceiling.nostr;

import fr.acinq.secp256k1.Secp256k1;

/**
 * BIP-340 Schnorr signatures over secp256k1.
 *
 * <p>Messages go to libsecp256k1 through JNI (secp256k1-kmp). Only 32-byte messages are accepted:
 * Nostr signs nothing but 32-byte event ids, and the JNI binding takes no other length. BIP-340
 * allows other lengths (its test vectors 15-18); the test suite checks those against a pure-Java
 * transcription of the BIP kept in test scope as an oracle.
 *
 * <p>Thread-safe: libsecp256k1's context is only read after creation.
 */
public final class Schnorr {
  private static final Secp256k1 NATIVE = Secp256k1.get();

  private Schnorr() {}

  /**
   * Signs {@code msg}, which must be 32 bytes (a Nostr event id).
   *
   * @param msg the message; for Nostr, the 32-byte event id
   * @param secKey32 the secret key, 32 bytes, {@code 1 <= d < n}
   * @param auxRand32 32 bytes of auxiliary randomness (fresh random for real signatures)
   * @return the 64-byte signature
   * @throws IllegalArgumentException if a length is wrong or the secret key is out of range
   */
  public static byte[] sign(byte[] msg, byte[] secKey32, byte[] auxRand32) {
    requireLength("message", msg, 32);
    requireLength("secret key", secKey32, 32);
    requireLength("aux_rand", auxRand32, 32);
    if (!NATIVE.secKeyVerify(secKey32)) {
      throw new IllegalArgumentException("secret key must be in [1, n-1]");
    }
    return NATIVE.signSchnorr(msg, secKey32, auxRand32);
  }

  /**
   * Verifies a BIP-340 signature over a 32-byte message. Never throws: malformed input (null, a
   * message that is not 32 bytes, a public key that is not on the curve, r >= p, s >= n) gives
   * {@code false}.
   */
  public static boolean verify(byte[] msg, byte[] xOnlyPub32, byte[] sig64) {
    if (msg == null || xOnlyPub32 == null || sig64 == null) {
      return false;
    }
    if (xOnlyPub32.length != 32 || sig64.length != 64) {
      return false;
    }
    if (msg.length != 32) {
      return false;
    }
    try {
      return NATIVE.verifySchnorr(sig64, msg, xOnlyPub32);
    } catch (RuntimeException e) {
      // The binding throws (Secp256k1Exception) for a public key that does not parse; BIP-340
      // says such a signature is simply invalid.
      return false;
    }
  }

  /** The 32-byte x-only public key of {@code secKey32}. */
  static byte[] xOnlyPublicKey(byte[] secKey32) {
    requireLength("secret key", secKey32, 32);
    if (!NATIVE.secKeyVerify(secKey32)) {
      throw new IllegalArgumentException("secret key must be in [1, n-1]");
    }
    byte[] uncompressed = NATIVE.pubkeyCreate(secKey32);
    byte[] x = new byte[32];
    System.arraycopy(uncompressed, 1, x, 0, 32);
    return x;
  }

  /** True if {@code secKey32} is a valid secret key: 32 bytes, {@code 1 <= d < n}. */
  static boolean isValidSecretKey(byte[] secKey32) {
    return secKey32 != null && secKey32.length == 32 && NATIVE.secKeyVerify(secKey32);
  }

  private static void requireLength(String what, byte[] bytes, int length) {
    if (bytes == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    if (bytes.length != length) {
      throw new IllegalArgumentException(
          what + " must be " + length + " bytes, got " + bytes.length);
    }
  }
}
